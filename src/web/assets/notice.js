// The synthetic-data notice in full on a first visit, then one line: loaded in the head (not deferred), so the
// classes are set before the page is drawn and the notice never changes height under the reader. The visit is
// remembered in localStorage, which the server never sees; without script (or storage) the notice stays in full.
(function () {
  'use strict';
  var KEY = 'signal-service.synthetic-notice';
  var root = document.documentElement;
  root.classList.add('js');
  var seen = null;
  try {
    seen = window.localStorage.getItem(KEY);
    if (!seen) window.localStorage.setItem(KEY, 'seen');
  } catch (e) {
    // Storage refused (private mode, policy): the full notice on every page is the safe side.
  }
  if (seen) root.classList.add('notice-brief');
  document.addEventListener('click', function (event) {
    var target = event.target;
    if (!target.closest || !target.closest('[data-notice-dismiss]')) return;
    root.classList.add('notice-brief');
    try {
      window.localStorage.setItem(KEY, 'dismissed');
    } catch (e) {
      // Not remembered; this page is shortened all the same.
    }
  });
})();
