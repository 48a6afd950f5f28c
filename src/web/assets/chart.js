// Charts, as an enhancement. Without script each point keeps its <title> (the browser's own tooltip), the page prints
// the same figures as a table, and the range control is a set of links. With it:
// - a chart can be focused; pointing at it, or ← → Home End, moves one vertical guide to a week and shows one read-out
//   of that week with every series' value, as the server formatted it (data-v);
// - the range links swap the chart's box for the same box of the linked page, without a reload.
(function () {
  'use strict';
  var each = function (list, fn) {
    Array.prototype.forEach.call(list, fn);
  };

  function readout(box) {
    var tip = box.querySelector('.chart-tip');
    if (tip) return tip;
    tip = document.createElement('div');
    tip.className = 'chart-tip';
    tip.hidden = true;
    tip.setAttribute('role', 'status');
    box.appendChild(tip);
    return tip;
  }

  function enhance(svg) {
    var box = svg.parentNode;
    var series = svg.querySelectorAll('g.series');
    var first = series[0] && series[0].querySelectorAll('circle.point');
    if (!box || !first || !first.length) return;
    var names = (svg.getAttribute('data-names') || '').split('|');
    var guide = svg.querySelector('line.guide');
    var tip = readout(box);
    var count = first.length;
    var marked = svg.querySelector('circle.point[data-shown]');
    var current = -1;
    svg.setAttribute('tabindex', '0');

    function row(className, label, value) {
      var line = document.createElement('span');
      line.className = 'tip-row ' + className;
      var key = document.createElement('span');
      key.className = 'tip-key';
      var name = document.createElement('span');
      name.textContent = label + ' ';
      var figure = document.createElement('b');
      figure.textContent = value;
      line.appendChild(key);
      line.appendChild(name);
      line.appendChild(figure);
      return line;
    }

    function show(i) {
      current = Math.max(0, Math.min(count - 1, i));
      each(svg.querySelectorAll('circle.point.on'), function (p) {
        p.classList.remove('on');
      });
      while (tip.firstChild) tip.removeChild(tip.firstChild);
      var week = document.createElement('strong');
      week.textContent = names[current] || '';
      tip.appendChild(week);
      var anchor = null;
      each(series, function (g) {
        var p = g.querySelector('circle.point[data-i="' + current + '"]');
        if (!p) return;
        p.classList.add('on');
        anchor = anchor || p;
        var kind = (g.getAttribute('class') || '').replace(/\bseries\b/, '').trim();
        tip.appendChild(row(kind, g.getAttribute('data-name') || '', p.getAttribute('data-v') || ''));
      });
      if (!anchor) return;
      if (guide) {
        guide.setAttribute('x1', anchor.getAttribute('cx'));
        guide.setAttribute('x2', anchor.getAttribute('cx'));
        guide.setAttribute('visibility', 'visible');
      }
      tip.hidden = false;
      // Beside the guide, on the side with room, inside the chart's box.
      var r = anchor.getBoundingClientRect();
      var b = box.getBoundingClientRect();
      var s = svg.getBoundingClientRect();
      var x = r.left - b.left + r.width / 2;
      var width = tip.offsetWidth;
      var left = x + 12 + width <= b.width ? x + 12 : x - 12 - width;
      tip.style.left = Math.max(0, Math.min(b.width - width, left)) + 'px';
      tip.style.top = Math.max(0, s.top - b.top + 4) + 'px';
    }
    function hide() {
      tip.hidden = true;
      if (guide) guide.setAttribute('visibility', 'hidden');
      each(svg.querySelectorAll('circle.point.on'), function (p) {
        p.classList.remove('on');
      });
    }
    function nearest(clientX) {
      var best = 0;
      var distance = Infinity;
      each(first, function (p, i) {
        var r = p.getBoundingClientRect();
        var d = Math.abs(r.left + r.width / 2 - clientX);
        if (d < distance) {
          distance = d;
          best = i;
        }
      });
      return best;
    }
    function start() {
      if (current >= 0) return current;
      return marked ? Number(marked.getAttribute('data-i')) : count - 1;
    }
    svg.addEventListener('pointermove', function (e) {
      show(nearest(e.clientX));
    });
    svg.addEventListener('pointerdown', function (e) {
      show(nearest(e.clientX));
    });
    svg.addEventListener('pointerleave', function () {
      if (document.activeElement !== svg) hide();
    });
    svg.addEventListener('blur', hide);
    svg.addEventListener('focus', function () {
      show(start());
    });
    svg.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        show(start() + (e.key === 'ArrowLeft' ? -1 : 1));
      } else if (e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        show(e.key === 'Home' ? 0 : count - 1);
      } else if (e.key === 'Escape') {
        hide();
      }
    });
  }

  function enhanceAll(root) {
    each(root.querySelectorAll('svg[data-chart]'), enhance);
  }
  enhanceAll(document);

  // The range links: fetch the linked page, put its box of this chart in place of this one, keep the week picker's
  // range, and keep the focus on the chosen link. Any failure follows the link instead.
  document.addEventListener('click', function (e) {
    var link = e.target.closest && e.target.closest('[data-range-box] a[data-range]');
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var box = link.closest('[data-range-box]');
    if (!box || !box.id || typeof fetch !== 'function' || typeof DOMParser !== 'function') return;
    e.preventDefault();
    var href = link.href;
    var range = link.getAttribute('data-range');
    box.setAttribute('aria-busy', 'true');
    fetch(href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (text) {
        var page = new DOMParser().parseFromString(text, 'text/html');
        var next = page.getElementById(box.id);
        if (!next) throw new Error('no chart');
        var open = box.querySelector('details[open]');
        if (open)
          each(next.querySelectorAll('details'), function (d) {
            d.open = true;
          });
        box.replaceWith(next);
        enhanceAll(next);
        each(document.querySelectorAll('form[data-autosubmit]'), function (form) {
          var kept = page.querySelector('form[data-autosubmit] input[name="range"]');
          var own = form.querySelector('input[name="range"]');
          if (own) own.remove();
          if (kept) form.insertBefore(kept, form.firstChild);
        });
        if (history.replaceState) history.replaceState(history.state, '', href);
        var chosen = next.querySelector('a[data-range="' + range + '"]');
        if (chosen) chosen.focus();
      })
      .catch(function () {
        window.location.href = href;
      });
  });
})();
