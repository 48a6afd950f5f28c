// Sortable tables, as an enhancement: without script the table keeps the server's order (the ranking).
// Each sortable header gets a button; activating it sorts by that column, again reverses, and aria-sort says which.
(function () {
  'use strict';
  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) return '';
    var v = cell.getAttribute('data-value');
    return v === null ? cell.textContent.trim() : v;
  }
  function sortBy(table, th, index) {
    var numeric = th.getAttribute('data-type') === 'number';
    var ascending = th.getAttribute('aria-sort') !== 'ascending';
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, index);
      var y = cellValue(b, index);
      var d = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return ascending ? d : -d;
    });
    rows.forEach(function (r) {
      body.appendChild(r);
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.removeAttribute('aria-sort');
    });
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  }
  Array.prototype.forEach.call(document.querySelectorAll('table[data-sortable]'), function (table) {
    if (!table.tHead) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      if (!th.hasAttribute('data-type')) return;
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = th.textContent;
      th.textContent = '';
      th.appendChild(button);
      button.addEventListener('click', function () {
        sortBy(table, th, index);
      });
    });
  });
})();
