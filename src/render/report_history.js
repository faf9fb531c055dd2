/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mfprio report: the History section (inlined by report_html.c before
 * report.js, which calls mfHistory.section).  It draws what
 * history_json.c embeds (data-history: each account's figures over the
 * snapshots of --history DIR, or a replay's users' factors over time,
 * --history FILE) and computes none: per account a small
 * chart of its effective usage against its normalized shares over time
 * (the gap the first view ranks by) and, below, its LevelFS (Fair Tree,
 * on a log scale: 1 in the middle) or its fair-share factor (classic,
 * 0 to 1).  The accounts come in the order the data gives, the page's
 * own ranking (rank_gap.h); the first CHARTS are drawn, the others
 * listed, each drawn on a click.  Every plotted value is in the DOM: the
 * markers carry it (data-v) and each chart has its table of figures. */
"use strict";
var mfHistory = (function () {
  var CHARTS = 12, W = 300, H = 160, L = 34, R = 6;
  var UP = [6, 84], LO = [96, 142];   /* the panels' top and bottom */
  var SEP = "\u2009";
  function pct(v) { return v == null ? "" : (100 * v).toFixed(2) + SEP + "%"; }
  function pts(v) { return (v >= 0 ? "+" : "\u2212") + Math.abs(100 * v).toFixed(2); }
  function when(t) { return new Date(t * 1000).toISOString().slice(0, 16).replace("T", " "); }
  /* the axis's top: V rounded up to half a power of ten (0.63: 0.65), at
   * most 1 (a fraction); 1 for no figure */
  function nice(v) {
    if (!(v > 0)) return 1;
    var u = Math.pow(10, Math.floor(Math.log10(v))) / 2;
    return Math.min(1, +(Math.ceil(v / u - 1e-9) * u).toPrecision(6));
  }
  function num(v) { return v == null ? "" : String(+v.toPrecision(4)); }

  /* which lower figure: LevelFS under Fair Tree (the last snapshot's
   * algorithm), else the fair-share factor */
  function lower(H0) {
    var s = H0.snapshots, ft = s.length && s[s.length - 1].algorithm === "fair_tree";
    return ft ? { key: "level_fs", name: "LevelFS", fmt: num,
                  y: function (v) { return 0.5 - Math.max(-3, Math.min(3, Math.log2(v))) / 6; } }
              : { key: "fairshare", name: "Fair-share factor", fmt: function (v) { return v == null ? "" : v.toFixed(4); },
                  y: function (v) { return 1 - Math.max(0, Math.min(1, v)); } };
  }
  /* a path through the points [x, y] of XY, broken where y is null */
  function path(xy) {
    var d = "", pen = false;
    xy.forEach(function (p) {
      if (p[1] == null) { pen = false; return; }
      d += (pen ? "L" : "M") + p[0].toFixed(1) + " " + p[1].toFixed(1);
      pen = true;
    });
    return d;
  }
  /* one account's chart: a figure with its SVG and its table */
  function chart(H0, a, rank, now, lo, esc) {
    var S = H0.snapshots, t0 = S[0].time, t1 = S[S.length - 1].time;
    var x = function (i) { return t1 > t0 ? L + (W - L - R) * (S[i].time - t0) / (t1 - t0) : (L + W - R) / 2; };
    var top = 0;
    a.effective_usage.concat(a.norm_shares).forEach(function (v) { if (v != null) top = Math.max(top, v); });
    top = nice(top * 1.05);
    var yu = function (v) { return v == null ? null : UP[1] - (UP[1] - UP[0]) * v / top; };
    var yl = function (v) { return v == null ? null : LO[0] + (LO[1] - LO[0]) * lo.y(v); };
    var g = now ? (now.effective_usage || 0) - (now.norm_shares || 0) : null;
    var svg = "<svg class=\"hist-svg\" viewBox=\"0 0 " + W + " " + H + "\" role=\"img\" aria-label=\"" +
      esc(a.account) + ": effective usage against normalized shares over time\" data-ymax=\"" + top +
      "\" data-y0=\"" + UP[1] + "\" data-y1=\"" + UP[0] + "\">" +
      "<rect class=\"panel\" x=\"" + L + "\" y=\"" + UP[0] + "\" width=\"" + (W - L - R) + "\" height=\"" + (UP[1] - UP[0]) + "\"/>" +
      "<text class=\"ax\" x=\"" + (L - 3) + "\" y=\"" + (UP[0] + 8) + "\">" + (100 * top).toFixed(top < 0.1 ? 1 : 0) + "%</text>" +
      "<text class=\"ax\" x=\"" + (L - 3) + "\" y=\"" + UP[1] + "\">0</text>";
    var shares = a.norm_shares.map(function (v, i) { return [x(i), yu(v)]; });
    var usage = a.effective_usage.map(function (v, i) { return [x(i), yu(v)]; });
    svg += "<path class=\"share\" d=\"" + path(shares) + "\"/><path class=\"usage\" d=\"" + path(usage) + "\"/>";
    usage.forEach(function (p, i) {
      if (p[1] == null) return;
      svg += "<circle class=\"u\" cx=\"" + p[0].toFixed(1) + "\" cy=\"" + p[1].toFixed(1) + "\" r=\"2\" data-i=\"" + i +
        "\" data-v=\"" + a.effective_usage[i] + "\"><title>" + when(S[i].time) + ": usage " + pct(a.effective_usage[i]) +
        ", share " + pct(a.norm_shares[i]) + "</title></circle>";
    });
    var lv = a[lo.key] || [], any = lv.some(function (v) { return v != null; });
    svg += "<rect class=\"panel\" x=\"" + L + "\" y=\"" + LO[0] + "\" width=\"" + (W - L - R) + "\" height=\"" + (LO[1] - LO[0]) + "\"/>";
    if (lo.key === "level_fs")
      svg += "<line class=\"one\" x1=\"" + L + "\" x2=\"" + (W - R) + "\" y1=\"" + yl(1) + "\" y2=\"" + yl(1) + "\"/>" +
        "<text class=\"ax\" x=\"" + (L - 3) + "\" y=\"" + (yl(1) + 3) + "\">1</text>" +
        "<text class=\"ax\" x=\"" + (L - 3) + "\" y=\"" + (LO[0] + 7) + "\">8</text>" +
        "<text class=\"ax\" x=\"" + (L - 3) + "\" y=\"" + LO[1] + "\">\u215b</text>";
    else
      svg += "<text class=\"ax\" x=\"" + (L - 3) + "\" y=\"" + (LO[0] + 7) + "\">1</text><text class=\"ax\" x=\"" +
        (L - 3) + "\" y=\"" + LO[1] + "\">0</text>";
    if (any) {
      svg += "<path class=\"fs\" d=\"" + path(lv.map(function (v, i) { return [x(i), yl(v)]; })) + "\"/>";
    } else {
      svg += "<text class=\"none\" x=\"" + ((L + W - R) / 2) + "\" y=\"" + (LO[0] + 20) + "\">no " + lo.name +
        (lo.key === "level_fs" ? " (no usage)" : " for accounts") + "</text>";
    }
    svg += "<text class=\"tx\" x=\"" + L + "\" y=\"" + (H - 3) + "\">" + when(t0).slice(0, 10) + "</text>" +
      "<text class=\"tx end\" x=\"" + (W - R) + "\" y=\"" + (H - 3) + "\">" + when(t1).slice(0, 10) + "</text></svg>";
    var rows = S.map(function (s, i) {
      return "<tr data-time=\"" + s.time + "\"><td class=\"l\">" + when(s.time) + "</td><td class=\"share\" data-v=\"" +
        (a.norm_shares[i] == null ? "" : a.norm_shares[i]) + "\">" + pct(a.norm_shares[i]) + "</td><td class=\"usage\" data-v=\"" +
        (a.effective_usage[i] == null ? "" : a.effective_usage[i]) + "\">" + pct(a.effective_usage[i]) +
        "</td><td class=\"fs\" data-v=\"" + (lv[i] == null ? "" : lv[i]) + "\">" + lo.fmt(lv[i]) + "</td></tr>";
    }).join("");
    return "<figure class=\"hist-chart\" data-account=\"" + esc(a.account) + "\" data-rank=\"" + rank + "\">" +
      "<figcaption><b>" + esc(a.account) + "</b>" + (a.parent && a.parent !== "root" ? " <span class=\"in\">in " +
      esc(a.parent) + "</span>" : "") + (g == null ? "" : " <span class=\"gap " + (g > 0 ? "over" : "under") +
      "\">gap now " + pts(g) + "</span>") + "</figcaption>" + svg +
      "<details><summary>Figures</summary><table class=\"hist-values\"><thead><tr><th class=\"l\">Snapshot (UTC)</th>" +
      "<th>Share</th><th>Usage</th><th>" + lo.name + "</th></tr></thead><tbody>" + rows + "</tbody></table></details></figure>";
  }
  /* the section's inner HTML: H0 the embedded history (null: none),
   * NOW account -> its fairshare --json row of the page's snapshot */
  function section(H0, now, esc) {
    var h = "<h2 id=\"hist-h\">History</h2>";
    if (!H0) {
      return h + "<p id=\"hist-none\" class=\"source\">No history on this page: it comes from snapshots taken over time. " +
        "Take one an hour from cron, <code>0 * * * * mfprio snapshot /var/lib/mfprio/history/$(date +\\%Y\\%m\\%dT\\%H\\%M)</code>, " +
        "then write the page with <code>mfprio report --html FILE --snapshot DIR --history /var/lib/mfprio/history</code> " +
        "; or replay a period of sacct records, <code>mfprio replay --snapshot DIR --json SACCT_FILE &gt;replay.json</code>, " +
        "and give <code>--history replay.json</code> for each user's fair-share factor over it.</p>";
    }
    if (H0.kind === "replay") return h + replaySection(H0, esc);
    var S = H0.snapshots, lo = lower(H0);
    h += "<p class=\"source\" id=\"hist-about\">" + S.length + " snapshot" + (S.length === 1 ? "" : "s") + " of " + esc(H0.dir) +
      ", " + when(S[0].time) + " to " + when(S[S.length - 1].time) + " UTC" +
      (H0.found > S.length + H0.skipped.length ? " (" + H0.found + " found: " + H0.max_points + " spread evenly are read)" : "") +
      ". Per account its effective usage (solid) against its normalized shares (dashed), the gap the tree ranks by, " +
      "and below, its " + lo.name + (lo.key === "level_fs" ? " (log scale from 1/8 to 8, 1 in the middle: above, it used less than its share)" :
      " (0 to 1)") + ". The " + Math.min(CHARTS, H0.accounts.length) + " accounts of largest gap on this page's snapshot " +
      "first; the others listed below.</p>";
    if (H0.skipped.length)
      h += "<details id=\"hist-skipped\"><summary>" + H0.skipped.length + " left out (could not be read)</summary><ul>" +
        H0.skipped.map(function (s) {
          return "<li data-name=\"" + esc(s.name) + "\">" + esc(s.name) + ": " + esc(s.why) + "</li>";
        }).join("") + "</ul></details>";
    h += "<div class=\"legend\"><span><span class=\"key usage\"></span>effective usage</span>" +
      "<span><span class=\"key share\"></span>normalized shares</span><span><span class=\"key fs\"></span>" + lo.name + "</span></div>";
    h += "<div id=\"hist-grid\">" + H0.accounts.slice(0, CHARTS).map(function (a, i) {
      return chart(H0, a, i + 1, now[a.account], lo, esc);
    }).join("") + "</div>";
    var rest = H0.accounts.slice(CHARTS);
    if (rest.length) {
      h += "<details id=\"hist-rest\"><summary>The other " + rest.length + " accounts (click a name for its chart)</summary>" +
        "<table><thead><tr><th class=\"l\">Account</th><th>Share now</th><th>Usage now</th><th>Gap</th></tr></thead><tbody>" +
        rest.map(function (a, i) {
          var r = now[a.account];
          return "<tr data-account=\"" + esc(a.account) + "\"><td class=\"l\"><button type=\"button\" data-rank=\"" +
            (CHARTS + i + 1) + "\">" + esc(a.account) + "</button></td><td>" + (r ? pct(r.norm_shares) : "") + "</td><td>" +
            (r ? pct(r.effective_usage) : "") + "</td><td>" + (r ? pts((r.effective_usage || 0) - (r.norm_shares || 0)) :
            "(gone)") + "</td></tr>";
        }).join("") + "</tbody></table><div id=\"hist-picked\"></div></details>";
    }
    return h;
  }
  /* --- a replay (mfprio replay --json): each user's fair-share factor
   * over the period, before (solid) and after (dashed) the what-if */
  var RP = [6, 142];
  function replayChart(H0, u, rank, esc) {
    var T = u.time, t0 = T[0], t1 = T[T.length - 1];
    var x = function (i) { return t1 > t0 ? L + (W - L - R) * (T[i] - t0) / (t1 - t0) : (L + W - R) / 2; };
    var y = function (v) { return v == null ? null : RP[1] - (RP[1] - RP[0]) * Math.max(0, Math.min(1, v)); };
    var name = u.user + " in " + u.account;
    var svg = "<svg class=\"hist-svg\" viewBox=\"0 0 " + W + " " + H + "\" role=\"img\" aria-label=\"" + esc(name) +
      ": fair-share factor before and after over the replay\" data-ymax=\"1\" data-y0=\"" + RP[1] + "\" data-y1=\"" + RP[0] +
      "\"><rect class=\"panel\" x=\"" + L + "\" y=\"" + RP[0] + "\" width=\"" + (W - L - R) + "\" height=\"" + (RP[1] - RP[0]) +
      "\"/><text class=\"ax\" x=\"" + (L - 3) + "\" y=\"" + (RP[0] + 8) + "\">1</text><text class=\"ax\" x=\"" + (L - 3) +
      "\" y=\"" + RP[1] + "\">0</text>";
    [["fs_after", "share", "a"], ["fs_before", "usage", "b"]].forEach(function (k) {
      var xy = u[k[0]].map(function (v, i) { return [x(i), y(v)]; });
      svg += "<path class=\"" + k[1] + "\" d=\"" + path(xy) + "\"/>";
      xy.forEach(function (p, i) {
        if (p[1] != null && (k[2] === "b" || T.length <= 60))
          svg += "<circle class=\"" + k[2] + (k[2] === "b" ? " u" : "") + "\" cx=\"" + p[0].toFixed(1) + "\" cy=\"" +
            p[1].toFixed(1) + "\" r=\"" + (k[2] === "b" ? 2 : 1.5) + "\" data-i=\"" + i + "\" data-v=\"" + u[k[0]][i] + "\"/>";
      });
    });
    svg += "<text class=\"tx\" x=\"" + L + "\" y=\"" + (H - 3) + "\">" + when(t0) + "</text><text class=\"tx end\" x=\"" +
      (W - R) + "\" y=\"" + (H - 3) + "\">" + when(t1) + "</text></svg>";
    var f4 = function (v) { return v == null ? "" : v.toFixed(4); };
    var rows = T.map(function (t, i) {
      return "<tr data-time=\"" + t + "\"><td class=\"l\">" + when(t) + "</td><td class=\"before\" data-v=\"" +
        (u.fs_before[i] == null ? "" : u.fs_before[i]) + "\">" + f4(u.fs_before[i]) + "</td><td class=\"after\" data-v=\"" +
        (u.fs_after[i] == null ? "" : u.fs_after[i]) + "\">" + f4(u.fs_after[i]) + "</td></tr>";
    }).join("");
    var last = T.length - 1;
    return "<figure class=\"hist-chart\" data-account=\"" + esc(u.account) + "\" data-user=\"" + esc(u.user) +
      "\" data-rank=\"" + rank + "\"><figcaption><b>" + esc(u.user) + "</b> <span class=\"in\">in " + esc(u.account) +
      "</span> at the end: " + f4(u.fs_before[last]) + " \u2192 " + f4(u.fs_after[last]) + "</figcaption>" + svg +
      "<details><summary>Figures</summary><table class=\"hist-values\"><thead><tr><th class=\"l\">Time (UTC)</th>" +
      "<th>Before</th><th>After</th></tr></thead><tbody>" + rows + "</tbody></table></details></figure>";
  }
  function replaySection(H0, esc) {
    var U = H0.users, h = "<p class=\"source\" id=\"hist-about\">A replay (<code>mfprio replay --json</code>, " +
      esc(H0.file) + ") of " + esc(H0.history || "sacct records") + ", " + when(H0.from) + " to " + when(H0.to) +
      " UTC: each user's fair-share factor over the period under the settings before (solid, " + esc(H0.before) +
      ") and after its what-if (dashed, " + esc(H0.after) + "), the schedule as it happened. The first " +
      Math.min(CHARTS, U.length) + " of the file's series (replay --top N: those that move most) drawn" +
      (U.length > CHARTS ? ", the others listed below" : "") +
      (H0.series_in_file > U.length ? "; " + (H0.series_in_file - U.length) + " more in the file are not on this page" : "") +
      ".</p><div class=\"legend\"><span><span class=\"key usage\"></span>before</span><span><span class=\"key share\">" +
      "</span>after</span></div>";
    h += "<div id=\"hist-grid\">" + U.slice(0, CHARTS).map(function (u, i) { return replayChart(H0, u, i + 1, esc); }).join("") +
      "</div>";
    var rest = U.slice(CHARTS);
    if (rest.length)
      h += "<details id=\"hist-rest\"><summary>The other " + rest.length + " users (click a name for its chart)</summary>" +
        "<table><thead><tr><th class=\"l\">User</th><th class=\"l\">Account</th><th>Before, at the end</th>" +
        "<th>After</th></tr></thead><tbody>" + rest.map(function (u, i) {
          var n = u.time.length - 1;
          return "<tr data-account=\"" + esc(u.account) + "\" data-user=\"" + esc(u.user) + "\"><td class=\"l\">" +
            "<button type=\"button\" data-rank=\"" + (CHARTS + i + 1) + "\">" + esc(u.user) + "</button></td><td class=\"l\">" +
            esc(u.account) + "</td><td>" + (u.fs_before[n] == null ? "" : u.fs_before[n].toFixed(4)) + "</td><td>" +
            (u.fs_after[n] == null ? "" : u.fs_after[n].toFixed(4)) + "</td></tr>";
        }).join("") + "</tbody></table><div id=\"hist-picked\"></div></details>";
    return h;
  }
  /* a click on a listed account (or user): its chart, under the list */
  function wire(root, H0, now, esc) {
    var rest = root.querySelector("#hist-rest");
    if (!rest || !H0) return;
    var lo = H0.kind === "replay" ? null : lower(H0);
    rest.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("button[data-rank]") : null;
      if (!b) return;
      var k = +b.dataset.rank, box = root.querySelector("#hist-picked");
      if (box.querySelector("figure[data-rank=\"" + k + "\"]")) return;
      box.insertAdjacentHTML("afterbegin", lo ? chart(H0, H0.accounts[k - 1], k, now[H0.accounts[k - 1].account], lo, esc) :
        replayChart(H0, H0.users[k - 1], k, esc));
    });
  }
  return { section: section, wire: wire, CHARTS: CHARTS };
})();
