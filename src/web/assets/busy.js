// Progress for requests that take seconds (a Scout look-up asks GitHub live), as an enhancement: a form or link with
// data-busy="…" shows that text and the seconds waited in its status line (role=status) until the next page arrives.
// Without script the browser's own loading indicator is all there is; the request is the same.
(function () {
  'use strict';
  var timer = null;
  function start(element, label) {
    var status = document.getElementById(element.getAttribute('data-busy-status'));
    if (!status) return;
    var started = Date.now();
    var text = element.getAttribute('data-busy').replace('{name}', label || '');
    function tick() {
      var seconds = Math.floor((Date.now() - started) / 1000);
      status.textContent = text + (seconds > 0 ? ' ' + seconds + ' s.' : '');
    }
    clearInterval(timer);
    status.hidden = false;
    tick();
    timer = setInterval(tick, 1000);
    var button = element.tagName === 'FORM' ? element.querySelector('button[type="submit"]') : null;
    if (button) button.setAttribute('aria-disabled', 'true');
  }
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute('data-busy')) return;
    var input = form.querySelector('input[type="text"]');
    var value = input ? input.value.trim() : '';
    if (!value) return;
    start(form, value);
  });
  document.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('a[data-busy]') : null;
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    start(link, link.getAttribute('data-busy-name'));
  });
  // Coming back to the page from the history (bfcache) must not show a look-up still running.
  window.addEventListener('pageshow', function () {
    clearInterval(timer);
    var lines = document.querySelectorAll('[data-busy-line]');
    for (var i = 0; i < lines.length; i++) lines[i].hidden = true;
    var buttons = document.querySelectorAll('button[aria-disabled="true"]');
    for (var j = 0; j < buttons.length; j++) buttons[j].removeAttribute('aria-disabled');
  });
})();
