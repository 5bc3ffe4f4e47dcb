// schedlab report page script (hand-written, no library). It reads the
// JSON in #data, decodes the base64 typed-array columns and draws the
// charts on canvases. window.schedlabReport and #selfcheck are the hooks
// the browser test reads.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message)); });
  var origError = console.error;
  console.error = function () {
    errors.push(Array.prototype.join.call(arguments, " "));
    origError.apply(console, arguments);
  };

  var PALETTE = ["#009E73", "#0072B2", "#E69F00", "#999999"]; // immediate, backfilled, reserved, other
  var INK = "#333";
  var PART_INK = "#7A0177"; // partition boundaries on the Gantt chart

  // decode turns {t, b} into a typed array (the data is little-endian,
  // as are the machines browsers run on).
  function decode(c) {
    var s = atob(c.b), n = s.length, u = new Uint8Array(n);
    for (var i = 0; i < n; i++) u[i] = s.charCodeAt(i);
    return c.t === "i32" ? new Int32Array(u.buffer) : new Float64Array(u.buffer);
  }

  // ticks returns round values covering [a, b], about n of them.
  function ticks(a, b, n) {
    if (!(b > a)) return [a];
    var raw = (b - a) / n, p = Math.pow(10, Math.floor(Math.log10(raw))), step = p;
    [1, 2, 5, 10].some(function (m) { step = m * p; return step >= raw; });
    var out = [];
    for (var v = Math.ceil(a / step) * step; v <= b + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }
  function fmt(v) {
    var a = Math.abs(v);
    if (a >= 1e6 || (a > 0 && a < 1e-3)) return v.toExponential(2);
    return String(Math.round(v * 1000) / 1000);
  }
  // fmtStep writes a tick value with as many digits as the step between
  // ticks needs, so that neighbouring ticks never read the same.
  function fmtStep(v, step) {
    if (!(step > 0)) return fmt(v);
    var a = Math.abs(v);
    if (a >= 1e6 || (a > 0 && a < 1e-3)) {
      var d = Math.max(2, Math.min(12, Math.ceil(Math.log10(Math.max(a, 1e-300) / step)) + 1));
      return v.toExponential(d);
    }
    var dec = Math.max(0, Math.min(12, -Math.floor(Math.log10(step))));
    return v.toFixed(dec);
  }
  // timeUnit picks seconds, hours or days for a span.
  function timeUnit(span) {
    if (span >= 5 * 86400) return [86400, "days"];
    if (span >= 5 * 3600) return [3600, "hours"];
    return [1, "s"];
  }

  // CLOCK places trace times on the calendar ({start, zone}: the epoch
  // second of trace time 0 and the time zone), null when the trace's
  // header has no UnixStartTime; set once the page's data is read.
  var CLOCK = null;
  // timeAxis returns the label and the tick formatter of a time axis whose
  // values are (t - t0) / unit: calendar dates with a CLOCK, else the
  // time since the first submission.
  function timeAxis(t0, u) {
    if (!CLOCK) return ["time since the first submission (" + u[1] + ")", null];
    var opts = u[0] >= 86400 ? { year: "numeric", month: "2-digit", day: "2-digit" } :
      u[0] >= 3600 ? { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" } :
        { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
    var zone = CLOCK.zone || "UTC", f;
    try {
      f = new Intl.DateTimeFormat("sv-SE", Object.assign({ timeZone: zone }, opts));
    } catch (e) {
      zone = "UTC";
      f = new Intl.DateTimeFormat("sv-SE", Object.assign({ timeZone: zone }, opts));
    }
    return ["date (" + zone + ")", function (v) { return f.format(new Date((CLOCK.start + t0 + v * u[0]) * 1000)); }];
  }

  // dateText writes trace time t as a date and time in the trace's zone
  // ("" without a CLOCK): the Gantt chart's tooltips.
  var dateFmt = null;
  function dateText(t) {
    if (!CLOCK || !isFinite(t)) return "";
    if (!dateFmt) {
      var o = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
      try { dateFmt = new Intl.DateTimeFormat("sv-SE", Object.assign({ timeZone: CLOCK.zone || "UTC" }, o)); }
      catch (e) { dateFmt = new Intl.DateTimeFormat("sv-SE", Object.assign({ timeZone: "UTC" }, o)); }
    }
    return dateFmt.format(new Date((CLOCK.start + t) * 1000));
  }
  // durText writes seconds in the largest unit that keeps the number
  // below 100 or so, three significant digits (as the page's tables).
  function durText(s) {
    var a = Math.abs(s), v = s, u = "s";
    if (a >= 48 * 3600) { v = s / 86400; u = "d"; } else if (a >= 6000) { v = s / 3600; u = "h"; } else if (a >= 100) { v = s / 60; u = "min"; }
    return (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString()) + " " + u;
  }

  // frame draws the axes of a plot area and returns its geometry.
  function frame(cv, x0, x1, y0, y1, xlabel, ylabel, xfmt, flipY) {
    var ctx = cv.getContext("2d"), W = cv.width, H = cv.height;
    var g = { L: 64, R: 10, T: 22, B: 36 };
    g.w = W - g.L - g.R; g.h = H - g.T - g.B;
    g.sx = g.w / (x1 - x0); g.sy = g.h / (y1 - y0);
    g.X = function (x) { return g.L + (x - x0) * g.sx; };
    g.Y = flipY ? function (y) { return g.T + (y - y0) * g.sy; } : function (y) { return g.T + g.h - (y - y0) * g.sy; };
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = INK; ctx.fillStyle = INK; ctx.lineWidth = 1; ctx.font = "11px sans-serif";
    ctx.strokeRect(g.L - 0.5, g.T - 0.5, g.w + 1, g.h + 1);
    ctx.textAlign = "center"; ctx.textBaseline = "top";
    ticks(x0, x1, 8).forEach(function (v) {
      var x = Math.round(g.X(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, g.T + g.h); ctx.lineTo(x, g.T + g.h + 4); ctx.stroke();
      ctx.fillText(xfmt ? xfmt(v) : fmt(v), x, g.T + g.h + 6);
    });
    ctx.fillText(xlabel, g.L + g.w / 2, H - 13);
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    var yt = ticks(y0, y1, 5), ystep = yt.length > 1 ? yt[1] - yt[0] : 0;
    yt.forEach(function (v) {
      var y = Math.round(g.Y(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(g.L - 4, y); ctx.lineTo(g.L, y); ctx.stroke();
      ctx.fillText(fmtStep(v, ystep), g.L - 6, y);
    });
    ctx.save(); ctx.translate(12, g.T + g.h / 2); ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "center"; ctx.fillText(ylabel, 0, 0); ctx.restore();
    return g;
  }

  // lineChart draws a binned series as steps.
  function lineChart(cv, s, title, ylabel, color, ymaxMin) {
    var n = s.y.length, ymax = ymaxMin;
    for (var i = 0; i < n; i++) ymax = Math.max(ymax, s.y[i]);
    var u = timeUnit(n * s.w), x1 = n * s.w / u[0], ax = timeAxis(s.t0, u);
    var g = frame(cv, 0, x1, 0, ymax, ax[0], ylabel, ax[1]);
    check.axes[cv.id] = { label: ax[0], first: ax[1] ? ax[1](0) : "0" };
    var ctx = cv.getContext("2d");
    ctx.fillText(title, g.L + 4 + ctx.measureText(title).width, 10);
    ctx.strokeStyle = color; ctx.lineWidth = 1.5; ctx.beginPath();
    for (i = 0; i < n; i++) {
      var xa = g.X(i * s.w / u[0]), xb = g.X((i + 1) * s.w / u[0]), y = g.Y(s.y[i]);
      if (i === 0) ctx.moveTo(xa, y); else ctx.lineTo(xa, y);
      ctx.lineTo(xb, y);
    }
    ctx.stroke();
  }

  // powerChart draws the machine's power per bin (P, powerView): the
  // mean as a line, the peak as a lighter line, and the cap (the least
  // at its own change times; none where there is no cap) dashed, from
  // 0 W.
  function powerChart(cv, P) {
    var n = P.mean.length, ymax = 1;
    for (var i = 0; i < n; i++) {
      ymax = Math.max(ymax, P.peak[i]);
      if (P.cap && P.cap[i] >= 0) ymax = Math.max(ymax, P.cap[i]);
    }
    ymax *= 1.05;
    var u = timeUnit(n * P.w), x1 = n * P.w / u[0], ax = timeAxis(P.t0, u);
    var g = frame(cv, 0, x1, 0, ymax, ax[0], "watts", ax[1]);
    check.axes[cv.id] = { label: ax[0], first: ax[1] ? ax[1](0) : "0" };
    var ctx = cv.getContext("2d");
    var title = "power (W): mean per bin (blue), peak per bin (orange)" + (P.cap ? ", the cap " + P.spec + " (red, dashed)" : "");
    ctx.fillText(title, g.L + 4 + ctx.measureText(title).width, 10);
    function steps(y, color, dash, width) {
      ctx.strokeStyle = color; ctx.lineWidth = width; ctx.setLineDash(dash); ctx.beginPath();
      var down = true;
      for (var i = 0; i < n; i++) {
        if (y[i] < 0) { down = true; continue; }
        var xa = g.X(i * P.w / u[0]), xb = g.X((i + 1) * P.w / u[0]), yy = g.Y(y[i]);
        if (down) ctx.moveTo(xa, yy); else ctx.lineTo(xa, yy);
        ctx.lineTo(xb, yy); down = false;
      }
      ctx.stroke(); ctx.setLineDash([]);
    }
    steps(P.peak, "#E69F00", [], 1);
    steps(P.mean, "#0072B2", [], 1.5);
    if (P.steps) { // the cap's own steps, at their times
      ctx.strokeStyle = "#D55E00"; ctx.lineWidth = 2; ctx.setLineDash([6, 4]);
      var T1 = P.t0 + n * P.w;
      P.steps.forEach(function (st, k) {
        if (st[1] < 0) return;
        var b = k + 1 < P.steps.length ? P.steps[k + 1][0] : T1, yy = g.Y(st[1]);
        ctx.beginPath(); ctx.moveTo(g.X((st[0] - P.t0) / u[0]), yy); ctx.lineTo(g.X((b - P.t0) / u[0]), yy); ctx.stroke();
      });
      ctx.setLineDash([]);
    }
  }

  // multiLine draws several binned series on the same bins as steps,
  // one colour each.
  function multiLine(cv, ss, title, ylabel, colors, ymaxMin) {
    var n = ss[0].y.length, w = ss[0].w, ymax = ymaxMin;
    ss.forEach(function (s) { for (var i = 0; i < n; i++) ymax = Math.max(ymax, s.y[i]); });
    var u = timeUnit(n * w), x1 = n * w / u[0], ax = timeAxis(ss[0].t0, u);
    var g = frame(cv, 0, x1, 0, ymax, ax[0], ylabel, ax[1]);
    var ctx = cv.getContext("2d");
    ctx.fillText(title, g.L + 4 + ctx.measureText(title).width, 10);
    ss.forEach(function (s, r) {
      ctx.strokeStyle = colors[r % colors.length]; ctx.lineWidth = 1.5; ctx.beginPath();
      for (var i = 0; i < n; i++) {
        var xa = g.X(i * w / u[0]), xb = g.X((i + 1) * w / u[0]), y = g.Y(s.y[i]);
        if (i === 0) ctx.moveTo(xa, y); else ctx.lineTo(xa, y);
        ctx.lineTo(xb, y);
      }
      ctx.stroke();
    });
  }

  // barChart draws a histogram.
  function barChart(cv, h, color) {
    var n = h.counts.length, ymax = 1;
    h.counts.forEach(function (c) { ymax = Math.max(ymax, c); });
    // headroom above the tallest bar for its count, clear of the title
    var g = frame(cv, 0, n, 0, ymax * 1.15, "", "jobs", function () { return ""; });
    var ctx = cv.getContext("2d");
    ctx.textAlign = "left"; ctx.fillText(h.title, g.L + 4, 10);
    ctx.textAlign = "center"; ctx.textBaseline = "top";
    for (var i = 0; i < n; i++) {
      var x = g.X(i + 0.1), w = 0.8 * g.sx, y = g.Y(h.counts[i]);
      ctx.fillStyle = color; ctx.fillRect(x, y, w, g.T + g.h - y);
      ctx.fillStyle = INK; ctx.fillText(h.labels[i], g.X(i + 0.5), g.T + g.h + 6);
      ctx.textBaseline = "bottom"; ctx.fillText(String(h.counts[i]), g.X(i + 0.5), y - 1); ctx.textBaseline = "top";
    }
  }

  // inked counts the coloured (not grey) pixels of a canvas.
  function inked(cv) {
    var d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data, n = 0;
    for (var i = 0; i < d.length; i += 4) if (d[i] !== d[i + 1] || d[i + 1] !== d[i + 2]) n++;
    return n;
  }

  // gantt draws the schedule of run data R on canvas cv: one rectangle
  // per job and interval of allocated_resources, coloured by start
  // reason, with hover, zoom and pan. full is the view of a reset
  // ({t0, t1, c0, c1}, times in seconds); onTime(v), when given, is told
  // of every change of the time axis by the user (the comparison page
  // moves its other charts with it).
  function gantt(R, cv, legend, tip, full, onTime) {
    var n = R.jobs, id = decode(R.id), sub = decode(R.submit), np = decode(R.nprocs), req = decode(R.req);
    var st = decode(R.start), fin = decode(R.finish), off = decode(R.ivoff), lo = decode(R.ivlo), hi = decode(R.ivhi);
    // planned.csv (run --planned): each job's last planned start, NaN where none
    var PL = R.planned ? decode(R.planned) : null, nplanned = 0;
    if (PL) for (var pj = 0; pj < PL.length; pj++) if (PL[pj] === PL[pj]) nplanned++;
    var text = R.text.map(function (t) { return { name: t.name, values: t.values, index: decode(t.index) }; });
    var nr = lo.length, rjob = new Int32Array(nr), grp = new Uint8Array(n);
    var reasonCol = null;
    text.forEach(function (t) { if (t.name === "start_reason") reasonCol = t; });
    var groupOf = reasonCol ? reasonCol.values.map(function (v) { var k = R.reasons.indexOf(v); return k < 0 ? 3 : k; }) : [];
    var j, k;
    for (j = 0; j < n; j++) {
      for (k = off[j]; k < off[j + 1]; k++) rjob[k] = j;
      grp[j] = reasonCol ? groupOf[reasonCol.index[j]] : 3;
    }
    // Rectangles by colour group, so each group is one fillStyle.
    var groups = [[], [], [], []];
    for (k = 0; k < nr; k++) groups[grp[rjob[k]]].push(k);
    groups = groups.map(function (a) { return Int32Array.from(a); });

    var num = function (v) { return String(v); };
    var ivText = function (j) {
      var parts = [];
      for (var k = off[j]; k < off[j + 1]; k++) parts.push(lo[k] === hi[k] ? String(lo[k]) : lo[k] + "-" + hi[k]);
      return parts.join(" ");
    };
    // cell returns the jobs.csv cell of job j in column name.
    var cell = function (j, name) {
      var ex = fin[j] - st[j];
      switch (name) {
        case "job_id": return num(id[j]);
        case "submission_time": return num(sub[j]);
        case "requested_number_of_resources": return num(np[j]);
        case "requested_time": return req[j] < 0 ? "" : num(req[j]);
        case "starting_time": return num(st[j]);
        case "execution_time": return num(ex);
        case "finish_time": return num(fin[j]);
        case "waiting_time": return num(st[j] - sub[j]);
        case "turnaround_time": return num(fin[j] - sub[j]);
        case "stretch": return ex > 0 ? num((fin[j] - sub[j]) / ex) : "";
        case "allocated_resources": return ivText(j);
      }
      for (var i = 0; i < text.length; i++) if (text[i].name === name) return text[i].values[text[i].index[j]];
      return "";
    };
    // A tooltip's times also as dates (with the trace's clock), its
    // durations also in human units; its partition's name is the cell's.
    var TIMES = { submission_time: 1, starting_time: 1, finish_time: 1 };
    var DURS = { requested_time: 1, execution_time: 1, waiting_time: 1, turnaround_time: 1 };
    var rowText = function (j) {
      return R.header.map(function (h) {
        var c = cell(j, h), x = "";
        if (c !== "" && TIMES[h]) x = dateText(Number(c));
        else if (c !== "" && DURS[h] && Number(c) >= 60) x = durText(Number(c));
        return h + ": " + c + (x ? " (" + x + ")" : "");
      }).join("\n");
    };

    var ctx = cv.getContext("2d");
    var tmin = full.t0, tu = timeUnit(full.t1 - full.t0);
    var v = Object.assign({}, full), geo = null;
    var perGroup = [0, 0, 0, 0];
    for (j = 0; j < n; j++) perGroup[grp[j]]++;
    R.reasons.concat(["other"]).forEach(function (r, i) {
      if (i === 3 && perGroup[3] === 0) return;
      var s = document.createElement("span"), b = document.createElement("i");
      b.style.background = PALETTE[i]; s.appendChild(b); s.appendChild(document.createTextNode(r + " (" + perGroup[i] + (perGroup[i] === 1 ? " job)" : " jobs)")));
      legend.appendChild(s);
    });
    // Unavailable CPUs (unavailability.csv): grey rectangles for
    // reserved spans, hatched ones for down spans, behind the jobs.
    var SP = R.spans || { kind: [], start: [], end: [], lo: [], hi: [] }, ns = SP.kind.length;
    var hatch = (function () {
      var c = document.createElement("canvas"); c.width = 8; c.height = 8;
      var x = c.getContext("2d");
      x.fillStyle = "#F2D7D5"; x.fillRect(0, 0, 8, 8);
      x.strokeStyle = "#A93226"; x.lineWidth = 1.5;
      x.beginPath(); x.moveTo(0, 8); x.lineTo(8, 0); x.moveTo(-2, 2); x.lineTo(2, -2); x.moveTo(6, 10); x.lineTo(10, 6); x.stroke();
      return ctx.createPattern(c, "repeat");
    })();
    var SPAN_FILL = ["#D0D0D0", hatch], SPAN_NAME = ["reserved", "down"];
    var perKind = [0, 0];
    for (k = 0; k < ns; k++) perKind[SP.kind[k]]++;
    [0, 1].forEach(function (kd) {
      if (perKind[kd] === 0) return;
      var s = document.createElement("span"), b = document.createElement("i");
      if (kd === 0) b.style.background = SPAN_FILL[0];
      else b.style.background = "repeating-linear-gradient(135deg, #F2D7D5 0 3px, #A93226 3px 4px)";
      s.appendChild(b); s.appendChild(document.createTextNode(SPAN_NAME[kd] + " CPUs (" + perKind[kd] + (perKind[kd] === 1 ? " span)" : " spans)")));
      legend.appendChild(s);
    });
    if (nplanned > 0) {
      var ps = document.createElement("span"), pb = document.createElement("i");
      pb.style.background = "#000"; pb.style.width = "3px";
      ps.appendChild(pb); ps.appendChild(document.createTextNode("planned start, the job's last reservation (" + nplanned + (nplanned === 1 ? " job)" : " jobs)")));
      legend.appendChild(ps);
    }
    var spanText = function (k) {
      return SPAN_NAME[SP.kind[k]] + ": CPUs " + (SP.lo[k] === SP.hi[k] ? SP.lo[k] : SP.lo[k] + "-" + SP.hi[k]) + " over [" + SP.start[k] + ", " + SP.end[k] + ")";
    };
    var rectGeo = function (k, g) {
      var j = rjob[k];
      var x = g.L + (st[j] - v.t0) * g.sx, w = Math.max((fin[j] - st[j]) * g.sx, 1);
      var y = g.T + (lo[k] - v.c0) * g.sy, h = Math.max((hi[k] - lo[k] + 1) * g.sy, 1);
      return { x: x, y: y, w: w, h: h };
    };
    var drawGantt = function () {
      var ax = timeAxis(tmin, tu);
      var g = frame(cv, (v.t0 - tmin) / tu[0], (v.t1 - tmin) / tu[0], v.c0, v.c1, ax[0], "CPU id", ax[1], true);
      g.sx = g.w / (v.t1 - v.t0); // in seconds
      geo = g;
      ctx.save(); ctx.beginPath(); ctx.rect(g.L, g.T, g.w, g.h); ctx.clip();
      var drawnSpans = 0;
      for (var sk = 0; sk < ns; sk++) {
        if (SP.end[sk] < v.t0 || SP.start[sk] > v.t1 || SP.hi[sk] + 1 < v.c0 || SP.lo[sk] > v.c1) continue;
        ctx.fillStyle = SPAN_FILL[SP.kind[sk]];
        ctx.fillRect(g.L + (SP.start[sk] - v.t0) * g.sx, g.T + (SP.lo[sk] - v.c0) * g.sy,
          Math.max((SP.end[sk] - SP.start[sk]) * g.sx, 1), Math.max((SP.hi[sk] - SP.lo[sk] + 1) * g.sy, 1));
        drawnSpans++;
      }
      check.spansDrawn = drawnSpans;
      for (var gi = 0; gi < 4; gi++) {
        var ks = groups[gi];
        ctx.fillStyle = PALETTE[gi];
        for (var i = 0; i < ks.length; i++) {
          var k = ks[i], j = rjob[k];
          if (fin[j] < v.t0 || st[j] > v.t1 || hi[k] + 1 < v.c0 || lo[k] > v.c1) continue;
          var x = g.L + (st[j] - v.t0) * g.sx, w = (fin[j] - st[j]) * g.sx;
          var y = g.T + (lo[k] - v.c0) * g.sy, h = (hi[k] - lo[k] + 1) * g.sy;
          if (w > 3) w -= 1; else if (w < 1) w = 1;
          if (h > 3) h -= 1; else if (h < 1) h = 1;
          ctx.fillRect(x, y, w, h);
        }
      }
      // Zoomed in far enough, each job's id in the top left corner of its
      // first rectangle (clear of the centre, where the colour is read).
      ctx.fillStyle = "#fff"; ctx.font = "10px sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "top";
      var labelled = 0;
      for (var jj = 0; jj < n && labelled < 3000; jj++) {
        var k0 = off[jj];
        if (k0 >= off[jj + 1] || fin[jj] < v.t0 || st[jj] > v.t1 || hi[k0] + 1 < v.c0 || lo[k0] > v.c1) continue;
        var lx = g.L + (Math.max(st[jj], v.t0) - v.t0) * g.sx, lw = (Math.min(fin[jj], v.t1) - Math.max(st[jj], v.t0)) * g.sx;
        var ly = g.T + (lo[k0] - v.c0) * g.sy, lh = (hi[k0] - lo[k0] + 1) * g.sy;
        var label = String(id[jj]);
        if (lw < 6 * label.length + 6 || lh < 26) continue;
        ctx.fillText(label, lx + 3, ly + 2);
        labelled++;
      }
      check.labelled = labelled;
      // Planned starts (run --planned), zoomed in far enough: a black
      // tick at the job's last reserved start on its first CPU row, and
      // a dotted line from it to the actual start when they differ.
      var marked = 0;
      if (PL) {
        ctx.strokeStyle = "#000"; ctx.lineWidth = 2;
        for (var mj = 0; mj < n && marked < 3000; mj++) {
          var pt = PL[mj], m0 = off[mj];
          if (pt !== pt || m0 >= off[mj + 1] || pt < v.t0 || pt > v.t1 || hi[m0] + 1 < v.c0 || lo[m0] > v.c1) continue;
          var my = g.T + (lo[m0] - v.c0) * g.sy, mh = (hi[m0] - lo[m0] + 1) * g.sy;
          if (mh < 6) continue;
          var mx = g.L + (pt - v.t0) * g.sx;
          ctx.setLineDash([]);
          ctx.beginPath(); ctx.moveTo(mx, my); ctx.lineTo(mx, my + Math.min(mh, 14)); ctx.stroke();
          if (Math.abs(pt - st[mj]) * g.sx > 3) {
            var sx0 = g.L + (st[mj] - v.t0) * g.sx;
            ctx.setLineDash([2, 2]); ctx.lineWidth = 1;
            ctx.beginPath(); ctx.moveTo(mx, my + 1); ctx.lineTo(sx0, my + 1); ctx.stroke();
            ctx.lineWidth = 2;
          }
          marked++;
        }
        ctx.setLineDash([]);
      }
      check.planned = nplanned; check.marked = marked;
      // Partitions: a dashed line at each edge of each partition's CPU
      // ranges, its name at the right end of its first range's top edge.
      var partLines = [], partLabels = [];
      if (R.partitions) {
        ctx.strokeStyle = PART_INK; ctx.lineWidth = 2; ctx.setLineDash([8, 4]);
        ctx.font = "bold 11px sans-serif"; ctx.textAlign = "right"; ctx.textBaseline = "top";
        R.partitions.forEach(function (P) {
          for (var pi = 0; pi < P.lo.length; pi++) {
            [P.lo[pi], P.hi[pi] + 1].forEach(function (c) {
              if (c < v.c0 || c > v.c1) return;
              // inside the plot area (its clip), the chart's edges too
              var y = Math.min(Math.max(Math.round(g.T + (c - v.c0) * g.sy), g.T + 1), Math.round(g.T + g.h) - 1);
              ctx.beginPath(); ctx.moveTo(g.L, y); ctx.lineTo(g.L + g.w, y); ctx.stroke();
              var px = ctx.getImageData(g.L + 3, y, 1, 1).data;
              partLines.push({ name: P.name, cpu: c, y: y, color: "#" + [px[0], px[1], px[2]].map(function (q) { return (q < 16 ? "0" : "") + q.toString(16); }).join("").toUpperCase() });
            });
          }
          var c0 = Math.max(P.lo[0], v.c0), ly = g.T + (c0 - v.c0) * g.sy + 3;
          if (P.lo[0] <= v.c1 && P.hi[0] + 1 >= v.c0) {
            var tw = ctx.measureText(P.name).width;
            ctx.fillStyle = "rgba(255,255,255,0.85)"; ctx.fillRect(g.L + g.w - tw - 8, ly - 1, tw + 6, 14);
            ctx.fillStyle = PART_INK; ctx.fillText(P.name, g.L + g.w - 5, ly);
            partLabels.push({ name: P.name, y: ly });
          }
        });
        ctx.setLineDash([]);
      }
      check.partLines = partLines; check.partLabels = partLabels;
      ctx.restore();
    };
    var pending = false;
    var redraw = function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; drawGantt(); });
    };
    var moved = function () { redraw(); if (onTime) onTime(v); };
    var pos = function (e) {
      var r = cv.getBoundingClientRect();
      return { x: (e.clientX - r.left) * cv.width / r.width, y: (e.clientY - r.top) * cv.height / r.height };
    };
    cv.addEventListener("wheel", function (e) {
      e.preventDefault();
      var p = pos(e), f = Math.exp(e.deltaY * 0.0015);
      if (e.shiftKey) {
        var c = v.c0 + (p.y - geo.T) / geo.sy, span = Math.max((v.c1 - v.c0) * f, 1);
        var a = (c - v.c0) / (v.c1 - v.c0);
        v.c0 = c - a * span; v.c1 = v.c0 + span;
      } else {
        var t = v.t0 + (p.x - geo.L) / geo.sx, tspan = Math.max((v.t1 - v.t0) * f, 1);
        var b = (t - v.t0) / (v.t1 - v.t0);
        v.t0 = t - b * tspan; v.t1 = v.t0 + tspan;
      }
      moved();
    }, { passive: false });
    var drag = null;
    cv.addEventListener("mousedown", function (e) { drag = { p: pos(e), v: Object.assign({}, v) }; cv.style.cursor = "grabbing"; });
    window.addEventListener("mouseup", function () { drag = null; cv.style.cursor = ""; });
    var hit = function (p) {
      var t = v.t0 + (p.x - geo.L) / geo.sx, c = v.c0 + (p.y - geo.T) / geo.sy;
      for (var k = 0; k < nr; k++) {
        var j = rjob[k];
        if (st[j] <= t && t < fin[j] && lo[k] <= c && c < hi[k] + 1) return j;
      }
      return -1;
    };
    cv.addEventListener("mousemove", function (e) {
      var p = pos(e);
      if (drag) {
        var dt = (p.x - drag.p.x) / geo.sx, dc = (p.y - drag.p.y) / geo.sy;
        v.t0 = drag.v.t0 - dt; v.t1 = drag.v.t1 - dt; v.c0 = drag.v.c0 - dc; v.c1 = drag.v.c1 - dc;
        tip.hidden = true; moved(); return;
      }
      var j = hit(p), txt = j >= 0 ? rowText(j) : "";
      if (j < 0) {
        var t = v.t0 + (p.x - geo.L) / geo.sx, c = v.c0 + (p.y - geo.T) / geo.sy;
        for (var sk = 0; sk < ns && !txt; sk++) {
          if (SP.start[sk] <= t && t < SP.end[sk] && SP.lo[sk] <= c && c < SP.hi[sk] + 1) txt = spanText(sk);
        }
      }
      if (!txt) { tip.hidden = true; return; }
      tip.textContent = txt; tip.hidden = false;
      tip.style.left = Math.min(e.offsetX + 14, cv.clientWidth - 300) + "px"; tip.style.top = (e.offsetY + 14) + "px";
    });
    cv.addEventListener("mouseleave", function () { tip.hidden = true; });
    drawGantt();

    var G = {
      jobs: n, rects: nr, spans: ns, row: rowText,
      // spanSample is the colour drawn at the centre of span k (the
      // page's self-check: a span no job covers there shows its fill).
      spanSample: function (k) {
        var x = geo.L + ((SP.start[k] + SP.end[k]) / 2 - v.t0) * geo.sx, y = geo.T + ((SP.lo[k] + SP.hi[k] + 1) / 2 - v.c0) * geo.sy;
        var px = ctx.getImageData(Math.floor(x), Math.floor(y), 1, 1).data;
        return { kind: SPAN_NAME[SP.kind[k]], color: "#" + [px[0], px[1], px[2]].map(function (c) { return (c < 16 ? "0" : "") + c.toString(16); }).join("").toUpperCase() };
      },
      rect: function (k) { var j = rjob[k]; return { job: id[j], cpuLo: lo[k], cpuHi: hi[k], start: st[j], finish: fin[j], group: grp[j] }; },
      reset: function () { v = Object.assign({}, full); redraw(); },
      setTime: function (t0, t1) { v.t0 = t0; v.t1 = t1; redraw(); },
      view: function () { return Object.assign({}, v); },
      // sample reads rectangle k back from the data, with the colour drawn
      // at its centre in the current view (for the self-check).
      sample: function (k) {
        var r = G.rect(k), q = rectGeo(k, geo);
        var px = ctx.getImageData(Math.floor(q.x + q.w / 2), Math.floor(q.y + q.h / 2), 1, 1).data;
        var want = PALETTE[r.group], got = "#" + [px[0], px[1], px[2]].map(function (c) { return (c < 16 ? "0" : "") + c.toString(16); }).join("").toUpperCase();
        r.index = k; r.w = q.w; r.h = q.h; r.color = got; r.want = want;
        return r;
      }
    };
    return G;
  }

  // spanOf is the first submission and last finish of run data R.
  function spanOf(R) {
    var sub = decode(R.submit), fin = decode(R.finish), t0 = Infinity, t1 = -Infinity;
    for (var j = 0; j < R.jobs; j++) { t0 = Math.min(t0, sub[j]); t1 = Math.max(t1, fin[j]); }
    if (!(t1 > t0)) { t0 = isFinite(t0) ? t0 : 0; t1 = t0 + 1; }
    return [t0, t1];
  }

  var D = JSON.parse(document.getElementById("data").textContent);
  CLOCK = D.clock || null;
  var check = { errors: errors, charts: {}, axes: {} };

  if (D.kind === "run") {
    var G = null;
    if (!D.nogantt) {
      var sp = spanOf(D);
      G = gantt(D, document.getElementById("gantt"), document.getElementById("gantt-legend"), document.getElementById("tip"),
        { t0: sp[0], t1: sp[1], c0: 0, c1: Math.max(D.procs, 1) });
      document.getElementById("gantt").addEventListener("dblclick", G.reset);
      document.getElementById("gantt-reset").addEventListener("click", G.reset);
    }

    lineChart(document.getElementById("util"), D.util, "utilization (busy CPUs / " + D.procs + ")", "utilization", "#0072B2", 1);
    lineChart(document.getElementById("queue"), D.queue, "queue length (jobs submitted, not started; mean per bin)", "jobs waiting", "#D55E00", 1);
    barChart(document.getElementById("wait"), D.wait, "#CC79A7");
    barChart(document.getElementById("bsld"), D.bsld, "#56B4E9");

    // Self-check for the browser test: a few rectangles read back from the
    // data, with the colour drawn at their centre in the full view.
    window.schedlabReport = G;
    if (G) {
      var nr = G.rects, samples = [];
      [0, Math.floor(nr / 2), nr - 1].forEach(function (k) { if (k >= 0 && k < nr) samples.push(G.sample(k)); });
      check.jobs = G.jobs; check.rects = nr; check.samples = samples;
      check.tip0 = nr > 0 ? G.row(0) : "";
      if (G.spans > 0) {
        check.spans = G.spans; check.spanSamples = [];
        for (var sk = 0; sk < Math.min(G.spans, 20); sk++) check.spanSamples.push(G.spanSample(sk));
      }
      check.charts.gantt = inked(document.getElementById("gantt"));
    }
    ["util", "queue", "wait", "bsld"].forEach(function (c) { check.charts[c] = inked(document.getElementById(c)); });
    if (D.power) {
      powerChart(document.getElementById("power"), D.power);
      check.charts.power = inked(document.getElementById("power"));
    }
  }
  if (D.kind === "comparison") {
    var RUNCOL = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"];
    var procs = 1;
    D.runs.forEach(function (R) { procs = Math.max(procs, R.procs); });
    var charts = [];
    var follow = function (from) {
      return function (v) { charts.forEach(function (c, i) { if (i !== from) c.setTime(v.t0, v.t1); }); };
    };
    var withGantt = !D.runs[0].nogantt;
    if (withGantt) {
      D.runs.forEach(function (R, i) {
        charts.push(gantt(R, document.getElementById("gantt-" + i), document.getElementById("gantt-legend-" + i), document.getElementById("tip-" + i),
          { t0: D.t0, t1: D.t1, c0: 0, c1: Math.max(R.procs, 1) }, follow(i)));
      });
    }
    var resetAll = function () { charts.forEach(function (c) { c.reset(); }); };
    if (withGantt) {
      D.runs.forEach(function (R, i) { document.getElementById("gantt-" + i).addEventListener("dblclick", resetAll); });
      document.getElementById("gantt-reset").addEventListener("click", resetAll);
    }
    var legend = document.getElementById("runs-legend");
    D.names.forEach(function (name, i) {
      var s = document.createElement("span"), b = document.createElement("i");
      b.style.background = RUNCOL[i % RUNCOL.length]; s.appendChild(b); s.appendChild(document.createTextNode(name));
      legend.appendChild(s);
    });
    multiLine(document.getElementById("util"), D.runs.map(function (R) { return R.util; }), "utilization (busy CPUs / machine size)", "utilization", RUNCOL, 1);
    multiLine(document.getElementById("queue"), D.runs.map(function (R) { return R.queue; }), "queue length (jobs submitted, not started; mean per bin)", "jobs waiting", RUNCOL, 1);
    D.diffs.forEach(function (d) { barChart(document.getElementById("diff-" + d.run), d.hist, "#CC79A7"); });

    // Self-check: the per-job differences read back through the page's
    // data for a few jobs, and every chart drawn.
    var ids = decode(D.ids), waits = D.diffs.map(function (d) { return decode(d.wait); }), resps = D.diffs.map(function (d) { return decode(d.resp); });
    window.schedlabReport = {
      charts: charts,
      diff: function (r, k) { return { run: D.diffs[r].run, job: ids[k], wait: waits[r][k], resp: resps[r][k] }; }
    };
    var dsamples = [];
    D.diffs.forEach(function (d, r) {
      [0, Math.floor(ids.length / 2), ids.length - 1].forEach(function (k) { if (k >= 0) dsamples.push(window.schedlabReport.diff(r, k)); });
    });
    check.jobs = ids.length; check.runs = D.runs.length; check.diffSamples = dsamples;
    if (withGantt) {
      // each run's unavailable spans, and the colour at the first one's centre
      check.runSpans = charts.map(function (c) { return c.spans; });
      check.runSpanSamples = charts.map(function (c) { return c.spans > 0 ? c.spanSample(0) : null; });
      check.rects = charts[0].rects;
      check.samples = charts[0].rects > 0 ? [charts[0].sample(0)] : [];
      // Synchronised zoom: zoom the first chart and read the others' views.
      var cv0 = document.getElementById("gantt-0"), r0 = cv0.getBoundingClientRect();
      cv0.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: r0.left + r0.width / 2, clientY: r0.top + r0.height / 2, cancelable: true }));
      check.synced = charts.every(function (c) { var a = c.view(), b = charts[0].view(); return a.t0 === b.t0 && a.t1 === b.t1; }) &&
        charts[0].view().t1 - charts[0].view().t0 < D.t1 - D.t0;
      resetAll();
      D.runs.forEach(function (R, i) { check.charts["gantt-" + i] = inked(document.getElementById("gantt-" + i)); });
    }
    check.charts.util = inked(document.getElementById("util"));
    check.charts.queue = inked(document.getElementById("queue"));
    D.diffs.forEach(function (d) { check.charts["diff-" + d.run] = inked(document.getElementById("diff-" + d.run)); });
  }
  if (D.kind === "sweep") {
    var SVGNS = "http://www.w3.org/2000/svg";
    // el appends an SVG element with attributes (and text) to parent.
    var el = function (parent, name, attrs, text) {
      var e = document.createElementNS(SVGNS, name);
      for (var k in attrs) e.setAttribute(k, attrs[k]);
      if (text !== undefined) e.textContent = text;
      parent.appendChild(e);
      return e;
    };
    var clear = function (svg) { while (svg.firstChild) svg.removeChild(svg.firstChild); };
    var widthOf = function (t) { return t.getBBox().width; };
    // measure is the width of text s in the charts' font, drawn in svg.
    // fit cuts the text of t to width w with "…" (the whole text then
    // in its tooltip).
    var fit = function (t, w) {
      var full = t.textContent, s = full;
      if (widthOf(t) <= w) return t;
      while (s.length > 1 && widthOf(t) > w) { s = s.slice(0, -1); t.textContent = s + "…"; }
      el(t, "title", {}, full);
      return t;
    };
    var measure = function (svg, s, cls) {
      var t = el(svg, "text", { "class": cls || "" }, s), w = widthOf(t);
      svg.removeChild(t);
      return w;
    };
    // wrap breaks label s into at most 4 lines no wider than w: first at
    // " / " (between the values of two parameters), then inside a value
    // after "-", "_", "." or "=". It returns null when that cannot fit.
    var wrap = function (svg, s, w) {
      var tokens = [];
      s.split(" / ").forEach(function (part, i) {
        var bits = part.split(/(?<=[-_.=])/);
        bits.forEach(function (b, j) { tokens.push({ text: (i > 0 && j === 0 ? "/ " : "") + b, fresh: j === 0 }); });
      });
      var lines = [], cur = "";
      for (var i = 0; i < tokens.length; i++) {
        var tk = tokens[i], next = cur === "" ? tk.text : cur + (tk.fresh ? " " : "") + tk.text;
        if (measure(svg, next, "xtick") <= w) { cur = next; continue; }
        if (cur === "" || measure(svg, tk.text, "xtick") > w) return null;
        lines.push(cur); cur = tk.text;
      }
      if (cur !== "") lines.push(cur);
      return lines.length <= 4 ? lines : null;
    };
    // xLabels lays out the x labels of n slots of width slot: every label
    // wrapped to fit its slot, or else the points' numbers (the table's
    // point column), every k-th when even those do not fit.
    var xLabels = function (svg, idx, slot) {
      var out = { lines: [], every: 1, numbers: false };
      for (var k = 0; k < idx.length && out.lines; k++) {
        var ls = wrap(svg, D.labels[idx[k]], slot - 8);
        if (ls) out.lines.push(ls); else out.lines = null;
      }
      if (out.lines) return out;
      out.numbers = true;
      out.lines = idx.map(function (pi) { return [D.points[pi]]; });
      var widest = 0;
      out.lines.forEach(function (l) { widest = Math.max(widest, measure(svg, l[0], "xtick")); });
      out.every = Math.max(1, Math.ceil((widest + 8) / slot));
      return out;
    };
    var unitText = function (u) { return u ? " (" + u + ")" : ""; };
    // yTicks are the value ticks of [y0, y1] with their labels.
    var yTicks = function (y0, y1, fmtv) {
      var yt = ticks(y0, y1, 5), step = yt.length > 1 ? yt[1] - yt[0] : 0;
      return yt.map(function (v) { return { v: v, s: fmtv(v, step) }; });
    };
    var PAD = { R: 12, T: 26 }, WIDE = 1100;
    // ciChart draws the visible points of metric m: mean and CI bars, in
    // the metric's display unit.
    var ciChart = function (m, show) {
      var svg = document.getElementById("ci-" + m), W = +svg.getAttribute("width"), sc = D.scales[m] || 1, idx = [], lo = Infinity, hi = -Infinity;
      clear(svg);
      for (var i = 0; i < D.points.length; i++) {
        if (!show[i] || !D.ok[m][i]) continue;
        idx.push(i);
        lo = Math.min(lo, D.values[m][i][1] / sc); hi = Math.max(hi, D.values[m][i][2] / sc);
      }
      if (idx.length === 0) { lo = 0; hi = 1; }
      if (!(hi > lo)) { var pad = Math.abs(hi) * 0.1 || 1; lo -= pad; hi += pad; }
      var padY = (hi - lo) * 0.08, y0 = lo - padY, y1 = hi + padY;
      var yt = yTicks(y0, y1, fmtStep), tickW = 0;
      yt.forEach(function (t) { tickW = Math.max(tickW, measure(svg, t.s, "ytick")); });
      var ytitle = D.titles[m] + unitText(D.units[m]);
      var L = 4 + 14 + 8 + tickW + 6, w = W - L - PAD.R, n = Math.max(idx.length, 1), slot = w / n;
      var xl = xLabels(svg, idx, slot), nl = 1;
      if (xl.numbers && W < WIDE) {
        // too narrow for the labels: the chart takes a row of its own
        svg.setAttribute("width", WIDE);
        return ciChart(m, show);
      }
      xl.lines.forEach(function (l) { nl = Math.max(nl, l.length); });
      var B = 6 + 13 * nl + 8 + 14, h = Math.max(120, measure(svg, ytitle, "axis-title") + 10), H = PAD.T + h + B;
      svg.setAttribute("height", H); svg.setAttribute("viewBox", "0 0 " + W + " " + H);
      var X = function (k) { return L + (k + 0.5) * slot; }, Y = function (v) { return PAD.T + h - (v - y0) / (y1 - y0) * h; };
      el(svg, "rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" });
      fit(el(svg, "text", { "class": "heading", x: 4, y: 15 }, D.titles[m] + " (" + D.metrics[m] + ")" + (D.better[m] ? "; " + D.better[m] : "")), W - 8);
      el(svg, "rect", { x: L, y: PAD.T, width: w, height: h, fill: "none", stroke: INK });
      yt.forEach(function (t) {
        var y = Y(t.v);
        el(svg, "line", { x1: L - 4, x2: L, y1: y, y2: y, stroke: INK });
        el(svg, "text", { "class": "ytick", x: L - 6, y: y, "text-anchor": "end", "dominant-baseline": "middle" }, t.s);
      });
      el(svg, "text", { "class": "axis-title ytitle", transform: "translate(14," + (PAD.T + h / 2) + ") rotate(-90)", "text-anchor": "middle" }, ytitle);
      xl.lines.forEach(function (ls, k) {
        if (k % xl.every !== 0) return;
        var t = el(svg, "text", { "class": "xtick", x: X(k), y: PAD.T + h + 6, "text-anchor": "middle", "dominant-baseline": "hanging" });
        ls.forEach(function (s, j) { el(t, "tspan", { x: X(k), dy: j === 0 ? 0 : 13 }, s); });
        el(t, "title", {}, D.labels[idx[k]]);
      });
      fit(el(svg, "text", { "class": "axis-title xtitle", x: L + w / 2, y: H - 6, "text-anchor": "middle" },
        xl.numbers ? "point (as in the table; hover for its " + D.xlabel + ")" : D.xlabel), w);
      var marks = 0;
      idx.forEach(function (pi, k) {
        var x = X(k), v = D.values[m][pi], g = el(svg, "g", { "class": "mark", stroke: "#0072B2", fill: "#0072B2", "stroke-width": 1.5 });
        el(g, "path", { d: "M" + x + " " + Y(v[1] / sc) + "V" + Y(v[2] / sc) + "M" + (x - 4) + " " + Y(v[1] / sc) + "h8M" + (x - 4) + " " + Y(v[2] / sc) + "h8", fill: "none" });
        el(g, "circle", { cx: x, cy: Y(v[0] / sc), r: 3.5 });
        marks++;
      });
      check.svg["ci-" + m] = marks;
      check.numbered["ci-" + m] = xl.numbers;
    };
    var JUDGE = { better: "#1a7f37", worse: "#b3261e" };
    // pairChart draws the visible comparisons of metric m: one row each,
    // mean difference and CI against the line of no difference.
    var pairChart = function (m, rowShown) {
      var svg = document.getElementById("pair-" + m);
      if (!svg) return;
      var W = +svg.getAttribute("width"), sc = D.diffscales[m] || 1, rows = [], lo = 0, hi = 0;
      clear(svg);
      D.pairs.forEach(function (p, k) {
        if (p.metric !== m || !rowShown[k]) return;
        rows.push(p);
        lo = Math.min(lo, p.diff[1] / sc); hi = Math.max(hi, p.diff[2] / sc);
      });
      if (!(hi > lo)) { lo -= 1; hi += 1; }
      var padX = (hi - lo) * 0.05, x0 = lo - padX, x1 = hi + padX;
      var labelW = 0, maxLabel = W * 0.4;
      rows.forEach(function (p) { labelW = Math.max(labelW, measure(svg, p.label, "rowlabel")); });
      labelW = Math.min(labelW, maxLabel);
      var L = labelW + 16, w = W - L - PAD.R - 10, RH = 22, T = PAD.T + 14, B = 6 + 13 + 8 + 14, h = Math.max(rows.length, 1) * RH, H = T + h + B;
      svg.setAttribute("height", H); svg.setAttribute("viewBox", "0 0 " + W + " " + H);
      var X = function (v) { return L + (v - x0) / (x1 - x0) * w; };
      el(svg, "rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" });
      var better = D.better[m];
      fit(el(svg, "text", { "class": "heading", x: 4, y: 15 }, "paired differences of " + D.titles[m] + " (" + D.metrics[m] + "), value − baseline: mean, 95% CI" + (better ? "; " + better : "")), W - 8);
      el(svg, "rect", { x: L, y: T, width: w, height: h, fill: "none", stroke: "#bbb" });
      var zx = X(0);
      el(svg, "line", { "class": "zero", x1: zx, x2: zx, y1: T, y2: T + h, stroke: INK, "stroke-dasharray": "4 3" });
      if (better) {
        var left = better.indexOf("lower") === 0;
        el(svg, "text", { "class": "better-hint", x: left ? zx - 4 : zx + 4, y: T - 4, "text-anchor": left ? "end" : "start" }, left ? "← value better" : "value better →");
        el(svg, "text", { "class": "better-hint worse", x: left ? zx + 4 : zx - 4, y: T - 4, "text-anchor": left ? "start" : "end" }, left ? "value worse →" : "← value worse");
      }
      var xt = ticks(x0, x1, 7), step = xt.length > 1 ? xt[1] - xt[0] : 0;
      xt.forEach(function (v) {
        var x = X(v);
        el(svg, "line", { x1: x, x2: x, y1: T + h, y2: T + h + 4, stroke: INK });
        el(svg, "text", { "class": "xtick", x: x, y: T + h + 6, "text-anchor": "middle", "dominant-baseline": "hanging" }, fmtStep(v, step));
      });
      fit(el(svg, "text", { "class": "axis-title xtitle", x: L + w / 2, y: H - 6, "text-anchor": "middle" }, "difference, value − baseline" + unitText(D.diffunits[m])), w);
      if (rows.length === 0) el(svg, "text", { x: L + 8, y: T + 15 }, "no comparison of this metric passes the filters");
      rows.forEach(function (p, r) {
        var y = T + (r + 0.5) * RH, t = fit(el(svg, "text", { "class": "rowlabel", x: L - 8, y: y, "text-anchor": "end", "dominant-baseline": "middle" }, p.label), labelW);
        if (!t.querySelector("title")) el(t, "title", {}, p.label);
        var c = JUDGE[p.judgement] || "#777", g = el(svg, "g", { "class": "pair " + (p.judgement || "tie"), stroke: c, fill: c, "stroke-width": 2 });
        el(g, "path", { d: "M" + X(p.diff[1] / sc) + " " + y + "H" + X(p.diff[2] / sc) + "M" + X(p.diff[1] / sc) + " " + (y - 5) + "v10M" + X(p.diff[2] / sc) + " " + (y - 5) + "v10", fill: "none" });
        el(g, "circle", { cx: X(p.diff[0] / sc), cy: y, r: 4 });
      });
      check.svg["pair-" + m] = rows.length;
    };
    var sels = Array.prototype.slice.call(document.querySelectorAll("#filters select"));
    var pointRows = Array.prototype.slice.call(document.querySelectorAll("table.points tbody tr"));
    var cmpRows = Array.prototype.slice.call(document.querySelectorAll("table.comparisons tbody tr"));
    var applyFilters = function () {
      var active = sels.filter(function (s) { return s.value !== ""; }).map(function (s) { return [s.dataset.axis, s.value]; });
      document.querySelectorAll("table.filterable tbody tr").forEach(function (tr) {
        var f = JSON.parse(tr.dataset.f);
        tr.hidden = !active.every(function (a) { return !(a[0] in f) || f[a[0]].indexOf(a[1]) >= 0; });
      });
      var show = pointRows.map(function (tr) { return !tr.hidden; }), rowShown = cmpRows.map(function (tr) { return !tr.hidden; });
      for (var m = 0; m < D.metrics.length; m++) { ciChart(m, show); pairChart(m, rowShown); }
      return show;
    };
    check.svg = {}; check.numbered = {};
    sels.forEach(function (s) { s.addEventListener("change", applyFilters); });
    var shown = applyFilters();
    check.points = shown.length;
    // The filters work: choosing the first value of the first axis hides
    // the points without it (the page is then put back as it was).
    if (sels.length > 0 && sels[0].options.length > 2) {
      sels[0].selectedIndex = 1;
      check.filteredPoints = applyFilters().filter(Boolean).length;
      check.filteredPairs = 0;
      for (var fm = 0; fm < D.metrics.length; fm++) check.filteredPairs += check.svg["pair-" + fm] || 0;
      sels[0].selectedIndex = 0;
      applyFilters();
    }
    // The boxes of every chart's labels, as the browser laid them out
    // ([left, top, right, bottom] in CSS pixels), for the browser test.
    var box = function (e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    check.boxes = {};
    document.querySelectorAll("svg.cichart, svg.pairchart").forEach(function (svg) {
      var q = function (s) { return Array.prototype.map.call(svg.querySelectorAll(s), box); };
      check.boxes[svg.id] = { xticks: q("text.xtick"), yticks: q("text.ytick"), titles: q("text.axis-title"), rowlabels: q("text.rowlabel"), chart: box(svg) };
    });
    check.scrollWidth = document.documentElement.scrollWidth;
    check.windowWidth = window.innerWidth;
  }
  // The self-check is written once the page (and its images) loaded.
  var finish = function () {
    Array.prototype.forEach.call(document.querySelectorAll("img.fig"), function (img) {
      check.charts[img.id] = img.complete && img.naturalWidth > 0 ? img.naturalWidth * img.naturalHeight : 0;
    });
    document.getElementById("selfcheck").textContent = JSON.stringify(check);
  };
  if (document.readyState === "complete") finish(); else window.addEventListener("load", finish);
})();
