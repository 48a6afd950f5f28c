// Chart tooltips, as an enhancement: without script each point keeps its <title> (the browser's own tooltip) and the
// page prints the same figures as a table. With it, a chart can be focused; pointing at it or pressing ← and → shows
// the week and every series' value at that week.
(function () {
  'use strict';
  Array.prototype.forEach.call(document.querySelectorAll('svg[data-chart]'), function (svg) {
    var box = svg.parentNode;
    var points = svg.querySelectorAll('circle.point');
    if (!points.length || !box) return;
    var count = 0;
    Array.prototype.forEach.call(points, function (p) {
      count = Math.max(count, Number(p.getAttribute('data-i')) + 1);
    });
    var tip = document.createElement('div');
    tip.className = 'chart-tip';
    tip.hidden = true;
    tip.setAttribute('role', 'status');
    box.appendChild(tip);
    svg.setAttribute('tabindex', '0');
    var current = -1;

    function show(i) {
      current = Math.max(0, Math.min(count - 1, i));
      var at = svg.querySelectorAll('circle.point[data-i="' + current + '"]');
      var parts = [];
      var week = '';
      Array.prototype.forEach.call(at, function (p) {
        var t = p.querySelector('title');
        if (!t) return;
        var text = t.textContent;
        var colon = text.indexOf(': ');
        week = text.slice(0, colon);
        parts.push(text.slice(colon + 2));
      });
      tip.textContent = week + ': ' + parts.join(' · ');
      tip.hidden = false;
      var first = at[0];
      if (!first) return;
      var r = first.getBoundingClientRect();
      var b = box.getBoundingClientRect();
      var left = r.left - b.left + r.width / 2;
      tip.style.left = '0px';
      tip.style.top = Math.max(0, r.top - b.top - 36) + 'px';
      var width = tip.offsetWidth;
      tip.style.left = Math.max(0, Math.min(b.width - width, left - width / 2)) + 'px';
    }
    function hide() {
      tip.hidden = true;
    }
    function nearest(clientX) {
      var best = 0;
      var distance = Infinity;
      Array.prototype.forEach.call(points, function (p) {
        var r = p.getBoundingClientRect();
        var d = Math.abs(r.left + r.width / 2 - clientX);
        if (d < distance) {
          distance = d;
          best = Number(p.getAttribute('data-i'));
        }
      });
      return best;
    }
    svg.addEventListener('pointermove', function (e) {
      show(nearest(e.clientX));
    });
    svg.addEventListener('pointerleave', hide);
    svg.addEventListener('blur', hide);
    svg.addEventListener('focus', function () {
      show(current < 0 ? count - 1 : current);
    });
    svg.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        show((current < 0 ? count - 1 : current) + (e.key === 'ArrowLeft' ? -1 : 1));
      } else if (e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        show(e.key === 'Home' ? 0 : count - 1);
      } else if (e.key === 'Escape') {
        hide();
      }
    });
  });
})();
