  // A run on a platform of nodes (nodes.js, inserted here on such pages
  // only): the Gantt by node, one row per node, drawn by the CPU Gantt's
  // code with the rows as its ids; and the GPU units held over time.
  if (D.kind === "run" && D.nodes) {
    var NV = D.nodes;
    if (NV.gantt) {
      var cpuOff = decode(D.ivoff), cpuLo = decode(D.ivlo), cpuHi = decode(D.ivhi);
      var NR = Object.assign({}, D, {
        ivoff: NV.gantt.ivoff, ivlo: NV.gantt.ivlo, ivhi: NV.gantt.ivhi, spans: null, ylabel: "node (row)",
        resText: function (j) {
          var parts = [];
          for (var k = cpuOff[j]; k < cpuOff[j + 1]; k++) parts.push(cpuLo[k] === cpuHi[k] ? String(cpuLo[k]) : cpuLo[k] + "-" + cpuHi[k]);
          return parts.join(" ");
        }
      });
      var names = NV.gantt.names, nsp = spanOf(D);
      var GN = gantt(NR, document.getElementById("gantt-nodes"), document.getElementById("gantt-nodes-legend"), document.getElementById("tip-nodes"),
        { t0: nsp[0], t1: nsp[1], c0: 0, c1: Math.max(names.length, 1) });
      document.getElementById("gantt-nodes").addEventListener("dblclick", GN.reset);
      var shown = names.slice(0, 500).map(function (n, i) { return i + " " + n; });
      document.getElementById("gantt-nodes-rows").textContent = "Rows from the top: " + shown.join(", ") + (names.length > shown.length ? ", ... (" + names.length + " nodes)" : "") + ".";
      window.schedlabNodes = GN;
      check.nodeRows = names.length; check.nodeRects = GN.rects;
      check.charts["gantt-nodes"] = inked(document.getElementById("gantt-nodes"));
    }
    lineChart(document.getElementById("gpu"), NV.gpu, NV.gpufraction ? "GPU utilization (GPU units held / " + NV.gpuunits + ")" : "GPU units held (the platform's count unknown)",
      NV.gpufraction ? "utilization" : "GPU units", "#009E73", 1);
    check.charts.gpu = inked(document.getElementById("gpu"));
  }
