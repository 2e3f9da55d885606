"""The project's scripts; a package so that the tests import the bootstrap's lookups."""
