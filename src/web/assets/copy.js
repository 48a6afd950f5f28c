// A "Copy" button beside each request to copy (a <pre data-copy> inside a .copy-box): an enhancement, so without
// script the request stays a plain, selectable block and no button that cannot work is shown. The button goes into the
// box's heading row, whose height is fixed by the stylesheet, so adding it moves nothing on the page. One status line
// (role="status") says "Copied" to screen readers; the button says it too for a moment.
(function () {
  'use strict';
  var boxes = document.querySelectorAll('.copy-box');
  if (!boxes.length) return;
  var status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');

  function select(pre) {
    var range = document.createRange();
    range.selectNodeContents(pre);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // The Clipboard API where the page is a secure context; otherwise the older copy command on a selection.
  function copy(pre) {
    var text = pre.textContent;
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      select(pre);
      var done = false;
      try {
        done = document.execCommand('copy');
      } catch (e) {
        done = false;
      }
      if (done) resolve();
      else reject(new Error('copy refused'));
    });
  }

  Array.prototype.forEach.call(boxes, function (box) {
    var pre = box.querySelector('pre[data-copy]');
    var head = box.querySelector('.copy-head');
    if (!pre || !head) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-button';
    // The visible word, and what is copied for a screen reader (the name keeps the visible word, as WCAG 2.5.3 asks).
    var label = document.createElement('span');
    label.textContent = 'Copy';
    var what = document.createElement('span');
    what.className = 'visually-hidden';
    what.textContent = ' ' + (pre.getAttribute('data-copy') || 'the request');
    button.appendChild(label);
    button.appendChild(what);
    var timer = 0;
    function say(word, message) {
      label.textContent = word;
      status.textContent = '';
      // A new text node each time, so the same message twice is announced twice.
      window.setTimeout(function () {
        status.textContent = message;
      }, 50);
      window.clearTimeout(timer);
      timer = window.setTimeout(function () {
        label.textContent = 'Copy';
      }, 2000);
    }
    button.addEventListener('click', function () {
      copy(pre).then(
        function () {
          say('Copied', 'Copied');
        },
        function () {
          select(pre);
          say('Selected', 'Not copied: the request is selected, copy it with your keyboard');
        },
      );
    });
    head.appendChild(button);
  });
  // Inside the first heading row, whose layout is its own (contain: strict), so adding it relays out nothing else.
  var first = document.querySelector('.copy-box .copy-head');
  if (first) first.appendChild(status);
})();
