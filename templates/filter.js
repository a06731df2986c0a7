// crawlsignals: the directory's search box and sortable columns. Without
// this script the page lists every site, by name, and the views above it
// filter; with it, typing keeps only the rows whose name or host holds
// what was typed, and each column heading sorts. No request leaves the page.
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
  // Sorting: each column heading becomes a button; a cell sorts by its
  // data-sort value when it has one, else by its text.
  document.querySelectorAll("table[data-sortable]").forEach(function (table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    // The stylesheet shows the headings as a row of buttons on a phone
    // once they are buttons; without this script they stay a hidden header.
    table.classList.add("sortable");
    Array.prototype.forEach.call(heads, function (th, col) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var key = function (row) {
          var cell = row.cells[col];
          var v = cell.getAttribute("data-sort");
          if (v === null) { v = cell.textContent.trim().toLowerCase(); }
          var n = Number(v);
          return v !== "" && !isNaN(n) ? n : v;
        };
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          var d = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), "nb");
          return ascending ? d : -d;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
