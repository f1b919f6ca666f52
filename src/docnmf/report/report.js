"use strict";
(function () {
  var D = JSON.parse(document.getElementById("report-data").textContent);
  var K = D.k, C = D.colours, shown = null, hits = null;

  function rgb(hex) { return [1, 3, 5].map(function (i) { return parseInt(hex.substr(i, 2), 16); }); }
  function blend(hex, t) {          // white (t = 0) to the colour (t = 1)
    var c = rgb(hex);
    return "rgb(" + c.map(function (v) { return Math.round(255 - (255 - v) * t); }).join(",") + ")";
  }
  function ramp(t) { return blend("#08306b", Math.max(0, Math.min(1, t))); }
  // black or white, whichever stands out more on ramp(t) (WCAG's contrast ratio)
  function inkOn(t) {
    var c = ramp(t).slice(4, -1).split(",").map(function (v) {
      v = v / 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    var lum = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    return 1.05 / (lum + 0.05) > (lum + 0.05) / 0.05 ? "#fff" : "#000";
  }
  // a canvas drawn at the screen's pixel density (at 200% zoom its numbers were blurred):
  // drawing is in the page's pixels, the width and height its markup gives
  function surface(cv) {
    if (!cv.dataset.w) { cv.dataset.w = cv.width; cv.dataset.h = cv.height; }
    var w = +cv.dataset.w, h = +cv.dataset.h;
    var r = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
    if (cv.width !== Math.round(w * r)) {
      cv.width = Math.round(w * r); cv.height = Math.round(h * r); cv.style.width = w + "px";
    }
    var g = cv.getContext("2d");
    g.setTransform(r, 0, 0, r, 0, 0);
    return {g: g, w: w, h: h};
  }

  // ---- map: one canvas, points coloured by cluster, each cluster's number written beside its
  // points (colours alone were lost to colour blindness and grey print)
  var M = D.map, mc = document.getElementById("map-canvas"), pts = [];
  function drawMap() {
    if (!M || !mc) return;
    var s = surface(mc), g = s.g, w = s.w, h = s.h, pad = 14, n = M.x.length;
    var r = n > 600 ? 2.6 : n > 200 ? 3.5 : 5, at = [];
    g.fillStyle = "#fff"; g.fillRect(0, 0, w, h);
    pts = [];
    for (var i = 0; i < n; i++) {
      var x = pad + M.x[i] * (w - 2 * pad), y = pad + (1 - M.y[i]) * (h - 2 * pad), c = M.cluster[i];
      pts.push([x, y]);
      var on = (shown === null || shown === c) && (hits === null || hits.has(i));
      g.globalAlpha = on ? 0.85 : 0.08;
      g.fillStyle = C[c];
      g.beginPath(); g.arc(x, y, hits !== null && hits.has(i) ? r + 2 : r, 0, 6.2832); g.fill();
      if (shown === null || shown === c) {
        var e = at[c] = at[c] || {right: [x, y], left: [x, y]};
        if (x > e.right[0]) e.right = [x, y];
        if (x < e.left[0]) e.left = [x, y];
      }
    }
    g.globalAlpha = 1;
    // beside the cluster's outermost point, right of it or else left: over the points, the
    // number hid every point of a tight cluster; level with their middle, it floated far from
    // any point of a cluster spread along an arc
    g.font = "bold 12px sans-serif"; g.textBaseline = "middle";
    g.lineJoin = "round"; g.lineWidth = 3; g.strokeStyle = "#fff"; g.fillStyle = "#000";
    at.forEach(function (e, c) {
      if (!e) return;
      var label = String(c), right = e.right[0] + r + 3;
      var room = right + g.measureText(label).width <= w;
      var lx = room ? right : e.left[0] - r - 3, ly = room ? e.right[1] : e.left[1];
      g.textAlign = room ? "left" : "right";
      g.strokeText(label, lx, ly); g.fillText(label, lx, ly);
    });
    g.textAlign = "left"; g.textBaseline = "alphabetic";
  }
  // buttons, so that a keyboard reaches them and a screen reader says which is pressed
  function legend() {
    var el = document.getElementById("legend");
    if (!el) return;
    var focused = document.activeElement && document.activeElement.parentNode === el ?
      document.activeElement.dataset.c : null;
    el.innerHTML = "";
    for (var c = 0; c < K; c++) {
      var s = document.createElement("button"), sw = document.createElement("i");
      s.type = "button";
      sw.className = "sw"; sw.style.background = C[c];
      s.appendChild(sw); s.appendChild(document.createTextNode(String(c)));
      s.className = shown === null || shown === c ? "" : "off";
      s.setAttribute("aria-pressed", shown === c ? "true" : "false");
      s.setAttribute("aria-label", "show cluster " + c + " only");
      s.dataset.c = c;
      s.onclick = function () {
        var c = +this.dataset.c; shown = shown === c ? null : c; legend(); drawMap();
      };
      el.appendChild(s);
      if (String(c) === focused) s.focus();
    }
  }
  // a tooltip beside the pointer, kept inside its figure (at the right edge of a narrow
  // window it was squeezed to a letter a line)
  function place(tip, ev, box) {
    var fw = tip.parentNode.clientWidth, x = ev.clientX - box.left, y = ev.clientY - box.top;
    var left = x + 12 + tip.offsetWidth > fw ? x - 12 - tip.offsetWidth : x + 12;
    tip.style.left = Math.max(0, left) + "px";
    tip.style.top = (y + 12) + "px";
  }
  function isolated(text) {
    var e = document.createElement("bdi"); e.textContent = text; return e;
  }
  if (mc && M) {
    var tip = document.getElementById("map-tip");
    mc.addEventListener("mousemove", function (ev) {
      var b = mc.getBoundingClientRect(), sx = mc.dataset.w / b.width, sy = mc.dataset.h / b.height;
      var x = (ev.clientX - b.left) * sx, y = (ev.clientY - b.top) * sy, best = -1, bd = 81;
      for (var i = 0; i < pts.length; i++) {
        var dx = pts[i][0] - x, dy = pts[i][1] - y, d = dx * dx + dy * dy;
        if (d < bd && (shown === null || shown === M.cluster[i])) { bd = d; best = i; }
      }
      if (best < 0) { tip.hidden = true; return; }
      tip.hidden = false;
      // the id and the text each in its own direction (bdi): an override one never closes
      // turned the words after it backwards
      tip.textContent = "";
      tip.appendChild(isolated(M.id[best]));
      tip.appendChild(document.createTextNode(" (cluster " + M.cluster[best] + "): "));
      tip.appendChild(isolated(M.text[best]));
      place(tip, ev, b);
    });
    mc.addEventListener("mouseleave", function () { tip.hidden = true; });
  }

  // ---- a matrix drawn as coloured cells, with row and column labels
  function matrix(canvas, rows, nrow, ncol, colour, opts) {
    if (!canvas) return;
    var s = surface(canvas), g = s.g, w = s.w, h = s.h;
    var left = opts.left, top = opts.top, cw = (w - left - 4) / ncol, ch = (h - top - 4) / nrow;
    g.fillStyle = "#fff"; g.fillRect(0, 0, w, h);
    // whole-pixel cell edges: fractional ones leave faint seams between neighbouring cells
    function edge(origin, size, i) { return Math.round(origin + i * size); }
    for (var i = 0; i < nrow; i++) {
      var y0 = edge(top, ch, i), y1 = edge(top, ch, i + 1);
      for (var j = 0; j < ncol; j++) {
        var x0 = edge(left, cw, j), x1 = edge(left, cw, j + 1);
        g.fillStyle = colour(rows[i][j], i, j);
        g.fillRect(x0, y0, x1 - x0, y1 - y0);
      }
    }
    g.fillStyle = "#333"; g.font = "11px sans-serif"; g.textAlign = "center";
    var step = Math.max(1, Math.ceil(14 / cw));
    for (j = 0; j < ncol; j += step) g.fillText(String(j), left + (j + 0.5) * cw, top - 5);
    return {g: g, cw: cw, ch: ch};
  }
  function drawSimilarity() {
    var S = D.similarity, cv = document.getElementById("similarity-canvas");
    if (!S || !cv) return;
    // a loop: Math.max.apply over k^2 values overflowed the stack from about 355 clusters
    var hi = 1e-9;
    for (var i = 0; i < K; i++) for (var j = 0; j < K; j++) if (i !== j && S[i][j] > hi) hi = S[i][j];
    var m = matrix(cv, S, K, K, function (v, i, j) { return i === j ? "#ccc" : ramp(v / hi); },
                   {left: 26, top: 18});
    // the values are written in the cells up to 14 clusters; beyond, hovering a cell gives it
    var tip = document.getElementById("similarity-tip");
    if (tip && !cv.dataset.hover) {
      cv.dataset.hover = "yes";
      cv.addEventListener("mousemove", function (ev) {
        var b = cv.getBoundingClientRect();
        var x = (ev.clientX - b.left) * cv.dataset.w / b.width;
        var y = (ev.clientY - b.top) * cv.dataset.h / b.height;
        var j = Math.floor((x - 26) / m.cw), i = Math.floor((y - 18) / m.ch);
        if (i < 0 || j < 0 || i >= K || j >= K || i === j) { tip.hidden = true; return; }
        tip.hidden = false;
        tip.textContent = "clusters " + i + " and " + j + ": " + S[i][j].toFixed(3);
        place(tip, ev, b);
      });
      cv.addEventListener("mouseleave", function () { tip.hidden = true; });
    }
    var step = Math.max(1, Math.ceil(14 / m.ch));
    m.g.textAlign = "right";
    for (i = 0; i < K; i += step) m.g.fillText(String(i), 22, 18 + (i + 0.5) * m.ch + 4);
    if (K <= 14) {
      m.g.textAlign = "center"; m.g.font = "10px sans-serif";
      for (i = 0; i < K; i++) for (j = 0; j < K; j++) {
        if (i === j) continue;
        m.g.fillStyle = inkOn(S[i][j] / hi);
        m.g.fillText(S[i][j].toFixed(2), 26 + (j + 0.5) * m.cw, 18 + (i + 0.5) * m.ch + 4);
      }
    }
  }
  function drawMemberships() {
    var B = D.bands, cv = document.getElementById("memberships-canvas");
    if (!B || !cv) return;
    var m = matrix(cv, B, B.length, K, function (v) { return ramp(Math.sqrt(v)); }, {left: 18, top: 18});
    for (var i = 0; i < B.length; i++) {
      m.g.fillStyle = C[D.bandClusters[i]];
      var y0 = Math.round(18 + i * m.ch);
      m.g.fillRect(2, y0, 12, Math.round(18 + (i + 1) * m.ch) - y0);
    }
  }

  // ---- search: documents on the map by id or word, clusters by keyword
  var box = document.getElementById("search"), out = document.getElementById("search-results");
  var count = document.getElementById("search-count"), found = document.getElementById("search-list");
  var said = document.getElementById("search-said");
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }
  // text as docnmf reads it into words: an accent written apart one with its letter, soft
  // hyphens and joiners dropped, ligatures and full-width letters as letters, the Turkish
  // dotted capital I as I; then lower-cased (NFKC goes a little further than docnmf: a
  // superscript two is a 2 here, Roman numerals and the trade mark sign letters)
  function fold(s) {
    s = String(s);
    if (s.normalize) s = s.normalize("NFKC");
    return s.replace(/[\u00ad\u200c\u200d\u2060\ufeff]/g, "").replace(/\u0130/g, "I")
      .toLowerCase().replace(/i\u0307/g, "i");
  }
  var foldedIds = null, foldedTexts = null;
  function search() {
    var q = fold(box.value.trim()), arts = document.querySelectorAll("article.cluster");
    if (M && !foldedTexts) { foldedIds = M.id.map(fold); foldedTexts = M.text.map(fold); }
    if (!q) {
      hits = null; out.hidden = true; if (said) said.textContent = "";
      arts.forEach(function (a) { a.classList.remove("match", "dim"); });
      drawMap(); return;
    }
    hits = new Set();
    var list = [];
    if (M) for (var i = 0; i < M.id.length; i++) {
      if (foldedIds[i].indexOf(q) >= 0 || foldedTexts[i].indexOf(q) >= 0) {
        hits.add(i);
        // each id and text in its own direction (bdi): an Arabic one ran left to right
        if (list.length < 50) list.push('<li><a href="#cluster-' + esc(M.cluster[i]) + '">cluster ' +
          esc(M.cluster[i]) + '</a> <span class="id"><bdi>' + esc(M.id[i]) +
          "</bdi></span> <bdi>" + esc(M.text[i]) + "</bdi></li>");
      }
    }
    var matched = [];
    arts.forEach(function (a) {
      // its keywords, the terms that set it apart and its documents; not the page's own words
      // ("documents", "weight"), which every cluster's section holds
      var own = Array.prototype.map.call(a.querySelectorAll(".dist .t, .docs li"),
                                         function (e) { return e.textContent; }).join(" ");
      var yes = a.dataset.words.split(" ").some(function (w) { return w.indexOf(q) === 0; }) ||
                fold(own).indexOf(q) >= 0;
      a.classList.toggle("match", yes); a.classList.toggle("dim", !yes);
      if (yes) matched.push(a.dataset.cluster);
    });
    out.hidden = false;
    // which clusters, not only how many: an outline alone said it to the eye
    var nc = matched.length, named = nc > 12 ? matched.slice(0, 12).join(", ") + " and " +
      (nc - 12) + " more" : matched.length > 1 ? matched.slice(0, -1).join(", ") + " and " +
      matched[nc - 1] : matched.join("");
    var clusters = nc === 0 ? "no cluster" : "<b>" + nc + "</b> cluster" + (nc === 1 ? "" : "s") +
      ": cluster" + (nc === 1 ? " " : "s ") + named;
    count.innerHTML = M ? "<b>" + hits.size + "</b> of the " + M.id.length +
      " documents on the map match, and " + clusters + "."
      : "Clusters that match: " + (nc === 0 ? "none" : clusters.replace(/^<b>\d+<\/b> clusters?: /, "")) +
        ". This page has no map of documents to search.";
    if (said) said.textContent = count.textContent;
    found.innerHTML = list.join("");
    found.hidden = !list.length;
    drawMap();
  }
  // the results open in the sticky header: they close when the focus or a followed link leaves
  // it (they covered half the window, and the cluster a result's link went to), and open
  // again at the search box
  function collapse() { if (out) out.hidden = true; }
  if (box) {
    box.addEventListener("input", search);
    box.addEventListener("focus", function () { if (box.value.trim()) out.hidden = false; });
  }

  // links land below the sticky header, whose height depends on the window's width
  var header = document.querySelector("header");
  function headerHeight() {
    var sticky = getComputedStyle(header).position === "sticky";   // not in a narrow window
    // measured without the search's results, which close before a link is followed (shown
    // again at once: no frame is drawn in between, and the focus stays where it was)
    var open = out && !out.hidden;
    if (open) out.hidden = true;
    document.documentElement.style.setProperty("--head", (sticky ? header.offsetHeight : 0) + "px");
    if (open) out.hidden = false;
  }
  if (header) {
    headerHeight();
    window.addEventListener("resize", headerHeight);
    header.addEventListener("click", function (ev) {
      if (ev.target.closest && ev.target.closest("a")) collapse();
    });
    // a press inside the header (a result's link or text) keeps the results: Safari gives a
    // clicked link no focus, so the box's blur closed them before the click reached the link
    var pressed = false;
    header.addEventListener("pointerdown", function () { pressed = true; });
    document.addEventListener("pointerup", function () { setTimeout(function () { pressed = false; }, 0); });
    header.addEventListener("focusout", function (ev) {
      if (pressed) return;
      if (!ev.relatedTarget || !header.contains(ev.relatedTarget)) collapse();
    });
  }
  // the charts follow the screen's pixel density, which a zoom changes, and so does moving
  // the window to another screen, without a resize
  function redraw() { drawMap(); drawSimilarity(); drawMemberships(); }
  window.addEventListener("resize", redraw);
  function watchDensity() {
    if (!window.matchMedia) return;
    var mq = window.matchMedia("(resolution: " + (window.devicePixelRatio || 1) + "dppx)");
    var once = function () { redraw(); watchDensity(); };
    if (mq.addEventListener) mq.addEventListener("change", once, {once: true});
    else if (mq.addListener) mq.addListener(function f() { mq.removeListener(f); once(); });
  }
  watchDensity();
  // a closed section (the confusion matrix) is printed open, then closed again
  // (the similarity values too when the chart cannot write them in its cells); a search is
  // set aside, as paper has no search box to say why clusters were faded
  var closed = [], query = "";
  window.addEventListener("beforeprint", function () {
    closed = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"),
      // the values where the chart writes none (beyond 14 clusters), cut into tables of 20
      // columns a page's width holds, up to 100 clusters (five tables, about six pages)
      function (d) { return !d.classList.contains("values") || (K > 14 && K <= 100); });
    closed.forEach(function (d) { d.open = true; });
    if (box && box.value) { query = box.value; box.value = ""; search(); }
  });
  window.addEventListener("afterprint", function () {
    closed.forEach(function (d) { d.open = false; }); closed = [];
    if (query) { box.value = query; query = ""; search(); collapse(); }
  });

  legend(); drawMap(); drawSimilarity(); drawMemberships();
  document.documentElement.dataset.rendered = "yes";
})();
