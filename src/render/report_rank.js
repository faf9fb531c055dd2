/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mfprio report: the ranking of a crowded level and the cluster summary
 * (inlined by report_html.c before report.js, which uses mfRank).
 *
 * The rule, the same as `mfprio tree`'s: an association's gap is its
 * effective usage less its normalized shares (both as fairshare --json
 * gives them, fractions of what it competes for); a level whose children
 * do not all get a readable box (11 px) shows the children of largest
 * absolute gap first (over its share and starved alike), then by name,
 * in equal slots, and gathers the others into one "+N more" box. */
"use strict";
var mfRank = (function () {
  function gap(r) {
    if (r.effective_usage == null || r.norm_shares == null) return 0;
    return r.effective_usage - r.norm_shares;
  }
  /* the levels of the tallest subtree among KIDS (1: none has a child) */
  function height(kids) {
    var m = 0;
    kids.forEach(function (k) { m = Math.max(m, height(k.kids)); });
    return kids.length ? m + 1 : 0;
  }
  function byGap(a, b) {
    var d = Math.abs(gap(b.row)) - Math.abs(gap(a.row));
    if (d) return d;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  }
  /* the boxes of N's children in a column H px high, at Y: a list of
   * [node or null, y, h]; null stands for the "+N more" box, whose
   * members are in the list's .rest */
  function layout(n, y, h, weight) {
    var sum = 0, out = [], kids = n.kids;
    kids.forEach(function (k) { sum += weight(k); });
    out.rest = [];
    if (!sum) return out;
    var fitAll = kids.every(function (k) { return h * weight(k) / sum >= 11; });
    if (fitAll) {
      kids.forEach(function (k) {
        var kh = h * weight(k) / sum;
        out.push([k, y, kh]);
        y += kh;
      });
      return out;
    }
    /* a box of 14 px a name; twice that for each level below the
     * children while the column keeps room for two boxes, so that under
     * each child named its own first child is named too */
    var rowH = 14, below = height(kids) - 1;
    for (; below > 0 && rowH * 4 <= h; below--) rowH *= 2;
    var fit = Math.max(1, Math.floor(h / rowH));
    var ranked = kids.slice().sort(byGap);
    var shown = fit >= kids.length ? kids.length : fit - 1;
    var slots = shown + (shown < kids.length ? 1 : 0), sh = h / slots;
    ranked.slice(0, shown).forEach(function (k, i) { out.push([k, y + i * sh, sh]); });
    if (shown < kids.length) {
      out.rest = ranked.slice(shown);
      out.push([null, y + shown * sh, sh]);
    }
    return out;
  }
  function pct(v) { return v == null ? "" : (100 * v).toFixed(2) + " %"; }
  function pts(v) { return (v >= 0 ? "+" : "") + (100 * v).toFixed(2); }
  function days(s) { return (s / 86400).toFixed(1) + " d"; }
  function when(t) { return new Date(t * 1000).toISOString().slice(0, 16).replace("T", " "); }
  /* how long ROW's gap has had the sign it has now (over its share: gap
   * > 0; else starved), by HIST (a --history DIR's snapshots,
   * history_json.h), at NOW (the page's time): [text, title].  The first
   * snapshot from which every snapshot to the last agrees, as days before
   * NOW ("3.0 d"); "≥ 5.0 d" when the first one already does (it
   * may have been so before), "< 1.0 d" when not even the last one does;
   * "" when HIST has no figure of the account.  Without HIST: "—". */
  function since(row, hist, now) {
    if (!hist || hist.kind !== "snapshots" || !hist.snapshots.length) return ["\u2014", ""];
    var S = hist.snapshots, a = null, last = S[S.length - 1].time;
    if (now == null) now = last;
    (hist.accounts || []).forEach(function (x) { if (x.account === row.account && !a) a = x; });
    if (!a) return ["", ""];
    var over = gap(row) > 0, k = S.length, word = over ? "over its share" : "starved";
    while (k > 0) {
      var u = a.effective_usage[k - 1], s = a.norm_shares[k - 1];
      if (u == null || s == null || ((u - s) > 0) !== over) break;
      k--;
    }
    if (k === S.length)
      return ["< " + days(now - last), "not " + word + " at the last snapshot (" + when(last) + ")"];
    return [(k === 0 ? "\u2265 " : "") + days(now - S[k].time),
            word + " since " + (k === 0 ? "before " : "") + "the snapshot of " + when(S[k].time)];
  }
  /* the summary of the cluster for the side panel: the ten accounts of
   * largest gap, for how long each has had it (HIST: the --history
   * data, or null; NOW: the page's time), the ten whose pending jobs
   * wait longest (WAITS: [account, jobs, median s, longest s], longest
   * median first) */
  function summary(nodes, waits, esc, hist, now) {
    var accts = nodes.filter(function (n) { return !n.row.user && n.parent; });
    var top = accts.slice().sort(byGap).slice(0, 10);
    var snaps = hist && hist.kind === "snapshots" && hist.snapshots.length;
    var h = "<h3 id=\"sum-h\">Cluster summary</h3><p class=\"help\">Largest gaps between usage and shares " +
      "(effective usage less normalized shares, in points: + over its share, &minus; starved); for: how long the gap " +
      (snaps ? "has kept its sign, by the " + hist.snapshots.length + " snapshots of --history" :
       "has kept its sign needs snapshots over time (report --history DIR, below)") + "</p>" +
      "<table id=\"sum-gaps\"><thead><tr><th class=\"l\">Account</th><th>Share</th><th>Usage</th><th>Gap</th>" +
      "<th>For</th></tr></thead><tbody>";
    top.forEach(function (n) {
      var r = n.row, g = gap(r), sc = since(r, hist, now);
      h += "<tr data-account=\"" + esc(r.account) + "\"><td class=\"l\"><a href=\"#\" data-id=\"" + n.id + "\">" +
        esc(n.name) + "</a></td><td class=\"share\">" + pct(r.norm_shares) + "</td><td class=\"usage\">" +
        pct(r.effective_usage) + "</td><td class=\"gap " + (g > 0 ? "over" : "under") + "\">" + pts(g) +
        "</td><td class=\"since\" title=\"" + esc(sc[1]) + "\">" + esc(sc[0]) + "</td></tr>";
    });
    h += "</tbody></table><p class=\"help\">Accounts whose pending jobs wait longest (since eligible: median, longest)</p>" +
      "<table id=\"sum-waits\"><thead><tr><th class=\"l\">Account</th><th>Pending</th><th>Median</th><th>Longest</th>" +
      "</tr></thead><tbody>";
    (waits || []).slice(0, 10).forEach(function (w) {
      h += "<tr data-account=\"" + esc(w[0]) + "\"><td class=\"l\">" + esc(w[0]) + "</td><td class=\"jobs\">" + w[1] +
        "</td><td class=\"median\">" + days(w[2]) + "</td><td class=\"longest\">" + days(w[3]) + "</td></tr>";
    });
    if (!waits || !waits.length) h += "<tr><td class=\"l\" colspan=\"4\">No pending job.</td></tr>";
    return h + "</tbody></table>";
  }
  /* the "+N more" list: a table of REST, sorted by KEY (name, shares,
   * usage, gap, fairshare), DESC */
  var KEYS = { name: function (n) { return n.name; }, shares: function (n) { return n.row.norm_shares; },
               usage: function (n) { return n.row.effective_usage; },
               /* the ranking's order: the gap either way */
               gap: function (n) { return Math.abs(gap(n.row)); },
               fairshare: function (n) { return n.row.fairshare; } };
  function moreTable(rest, key, desc, esc) {
    var f = KEYS[key], s = rest.slice().sort(function (a, b) {
      var x = f(a), y = f(b);
      if (x == null) x = -Infinity;
      if (y == null) y = -Infinity;
      var d = x < y ? -1 : x > y ? 1 : 0;
      return desc ? -d : d;
    });
    var cols = [["name", "Name"], ["shares", "Share"], ["usage", "Usage"], ["gap", "Gap"], ["fairshare", "Fair-share"]];
    var h = "<table><thead><tr>" + cols.map(function (c) {
      return "<th" + (c[0] === "name" ? " class=\"l\"" : "") + "><button type=\"button\" data-sort=\"" + c[0] + "\">" +
        c[1] + (c[0] === key ? (desc ? " \u25bc" : " \u25b2") : "") + "</button></th>";
    }).join("") + "</tr></thead><tbody>";
    s.forEach(function (n) {
      var r = n.row;
      h += "<tr data-id=\"" + n.id + "\"><td class=\"l\"><a href=\"#\" data-id=\"" + n.id + "\">" + esc(n.name) +
        "</a></td><td>" + pct(r.norm_shares) + "</td><td>" + pct(r.effective_usage) + "</td><td>" + pts(gap(r)) +
        "</td><td>" + (r.fairshare == null ? "" : r.fairshare.toFixed(4)) + "</td></tr>";
    });
    return h + "</tbody></table>";
  }
  return { gap: gap, layout: layout, summary: summary, moreTable: moreTable };
})();
