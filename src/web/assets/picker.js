// Pickers that need no button with script: choosing a week in a form marked data-autosubmit shows it at once. Without
// script the form keeps its button.
(function () {
  'use strict';
  Array.prototype.forEach.call(document.querySelectorAll('form[data-autosubmit]'), function (form) {
    var button = form.querySelector('button[type="submit"]');
    if (button) button.style.display = 'none';
    Array.prototype.forEach.call(form.querySelectorAll('select'), function (select) {
      select.addEventListener('change', function () {
        if (typeof form.requestSubmit === 'function') form.requestSubmit();
        else form.submit();
      });
    });
  });
})();
