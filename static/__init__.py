"""The shared front-end (runtime, styles, the tester's and the Arbitre's scripts): package
data, a package only so that ``importlib.resources`` finds it in an installed wheel."""
