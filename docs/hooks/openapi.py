"""A MkDocs hook: the HTTP API's operations (docs/reference/http-api-operations.md) rendered
from the OpenAPI document at each build, so that the page cannot drift from the server.

The document is the one every server serves at ``/api/openapi.json``, built without a
server by ``tournoyons_gui.arbitre.web.openapi.document()``. The page holds the marker
``<!-- operations -->``; this hook puts there the Markdown that essentials-openapi (the
library behind neoteroi-mkdocs' OAD plugin) writes for the document, and publishes the
document itself beside the page as ``reference/openapi.json``.
"""

from __future__ import annotations

import json
from typing import Any

from mkdocs.structure.files import File, Files

MARKER = "<!-- operations -->"
PAGE = "reference/http-api-operations.md"
DOCUMENT = "reference/openapi.json"


def _document() -> dict[str, Any]:
    from tournoyons_gui.arbitre.web.openapi import document

    return document()


def operations() -> str:
    """Return the Markdown of every operation of the document, without its own title (the
    page has one)."""
    from openapidocs.mk.v3 import OpenAPIV3DocumentationHandler

    written = OpenAPIV3DocumentationHandler(_document(), style="MKDOCS").write()
    lines = written.splitlines()
    # Drop the generator's comment and its top-level "# <title>" heading.
    title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    return "\n".join(lines[title + 1 :])


def on_files(files: Files, config: Any, **_: Any) -> Files:
    """Publish the OpenAPI document beside its page (MkDocs' ``on_files`` event)."""
    content = json.dumps(_document(), indent=2, ensure_ascii=False)
    files.append(File.generated(config, DOCUMENT, content=content))
    return files


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Fill the operations' page (MkDocs' ``on_page_markdown`` event)."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"{PAGE} has lost its marker {MARKER}")
    return markdown.replace(MARKER, operations())
