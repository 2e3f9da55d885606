/* An interface check's page: while the check runs, poll its JSON every second and move the
 * progress bar; once it is over, reload the page, which then shows the table. */
(function () {
  "use strict";
  var node = document.getElementById("check-config");
  var config = node ? JSON.parse(node.textContent) : {};
  if (!config.json || config.finished) { return; }
  var bar = document.querySelector("[data-progress]");
  var label = document.querySelector("[data-progress-label]");
  function poll() {
    fetch(config.json, {cache: "no-store"}).then(function (r) { return r.json(); })
      .then(function (run) {
        if (run.finished) { window.location.reload(); return; }
        if (bar) { bar.max = run.total || 1; bar.value = run.done; }
        if (label) { label.textContent = run.label; }
        setTimeout(poll, 1000);
      }, function () { setTimeout(poll, 2000); });
  }
  setTimeout(poll, 1000);
}());
