// crawlsignals: the directory's search box. Without this script the page
// lists every site; with it, typing keeps only the rows whose name or host
// holds what was typed. No request leaves the page.
(function () {
  "use strict";
  document.querySelectorAll("form[data-filter]").forEach(function (form) {
    var table = document.getElementById(form.getAttribute("data-filter"));
    var input = form.querySelector("input");
    var out = form.querySelector("output");
    if (!table || !input) { return; }
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    form.hidden = false;
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (row) {
        var hit = q === "" || (row.getAttribute("data-search") || "").indexOf(q) >= 0;
        row.hidden = !hit;
        if (hit) { shown++; }
      });
      if (out) { out.textContent = q === "" ? "" : shown + " of " + rows.length + " sites"; }
    });
  });
})();
