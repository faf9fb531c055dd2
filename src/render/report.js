/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mfprio report: the page's script (inlined by report_html.c).  It lays
 * out and filters the figures embedded as JSON; it computes none. */
"use strict";
(function () {
  var t0 = performance.now();
  function data(id) {
    var e = document.getElementById(id);
    return e ? JSON.parse(e.textContent) : null;
  }
  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[c];
    });
  }
  function el(tag, attrs, html) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (html != null) e.innerHTML = html;
    return e;
  }
  var FS = data("data-fairshare"), PR = data("data-priority");
  var CK = data("data-check"), QU = data("data-queue");
  var app = document.getElementById("app");

  /* --- colours: viridis (sequential, reads for colour-blind viewers) */
  var VIR = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98],
             [253, 231, 37]];
  function viridis(t) {
    t = Math.max(0, Math.min(1, t)) * (VIR.length - 1);
    var i = Math.min(Math.floor(t), VIR.length - 2), f = t - i, c = [];
    for (var k = 0; k < 3; k++)
      c.push(Math.round(VIR[i][k] + f * (VIR[i + 1][k] - VIR[i][k])));
    return "rgb(" + c.join(",") + ")";
  }
  /* where a box's figure sits on the ramp: a user's fair-share factor
   * (0 to 1); an account's level fair-share on a log scale (1: middle,
   * 8 or no usage: top, 1/8: bottom); null: none */
  function shade(n) {
    var r = n.row;
    if (r.user) return r.fairshare;
    if (r.level_fs != null) return 0.5 + Math.log2(r.level_fs) / 6;
    if (r.fairshare_parent || n.parent === null) return null;
    return 1;
  }

  /* --- the tree, as mfprio fairshare --json gives its rows */
  var nodes = [], byAcct = {};
  (FS ? FS.rows : []).forEach(function (r, i) {
    var n = { id: i, row: r, name: r.user || r.account, kids: [],
              parent: null };
    if (r.partition) n.name += " (" + r.partition + ")";
    nodes.push(n);
    if (!r.user) byAcct[r.account] = n;
  });
  nodes.forEach(function (n) {
    var p = n.row.user ? byAcct[n.row.account] : byAcct[n.row.parent];
    if (p && p !== n) { n.parent = p; p.kids.push(n); }
  });
  var root = nodes.filter(function (n) { return !n.parent; })[0];
  /* a box's share among its siblings: RawShares (a FairShare=parent
   * user, which has none of its own, and the root: one) */
  function weight(n) {
    return n.row.raw_shares == null ? 1 : Math.max(n.row.raw_shares, 0);
  }
  function height(n) {
    var h = 0;
    n.kids.forEach(function (k) { h = Math.max(h, height(k)); });
    return h + 1;
  }

  var HELP = [
    ["raw_shares", "Raw shares",
     "The FairShare set on the association in sacctmgr: its claim against its siblings."],
    ["norm_shares", "Normalized shares",
     "The association's shares as a fraction of what it competes for (0 to 1)."],
    ["raw_usage", "Raw usage",
     "CPU-seconds (billing) used, decayed by PriorityDecayHalfLife."],
    ["effective_usage", "Effective usage",
     "The usage as a fraction of its parent's, or of the whole cluster's under the classic algorithm."],
    ["level_fs", "Level fair-share",
     "Fair Tree: normalized shares over effective usage; above 1 means it used less than its share (empty: no usage)."],
    ["fairshare", "Fair-share factor",
     "The user's factor from 0 to 1 that PriorityWeightFairshare multiplies; higher is served sooner."]
  ];

  /* --- the page's parts: links to each first, so that the queue is one
   * click from the first view */
  var npend = 0;
  (QU ? QU.partitions : []).forEach(function (p) { npend += p.rows; });
  app.appendChild(el("nav", { id: "tabs", "aria-label": "Parts of the page" },
    "<a href=\"#tree-section\">Association tree</a><a id=\"to-queue\" href=\"#queue-section\">Queue (" + npend +
    " pending rows)</a><a id=\"to-history\" href=\"#history-section\">History</a>" +
    "<a href=\"#settings-section\">Settings and findings</a>"));
  app.appendChild(el("section", { id: "tree-section", "aria-labelledby": "tree-h" },
    "<h2 id=\"tree-h\">Association tree</h2>" +
    "<p class=\"source\">An icicle on its side: each column is one level of the tree, each box's height " +
    "its shares among its siblings; where a level has more children than can be named, the ones of largest gap between usage " +
    "and shares come first in equal boxes, the others in one \u201c+N more\u201d box that opens a sortable list. Click or Enter on an account to zoom into it, Escape to go back; " +
    "hover or focus a box for its figures.</p>" +
    "<div class=\"bar-row\"><form id=\"find-form\"><label for=\"find\">Find an account or user </label>" +
    "<input id=\"find\" list=\"names\" autocomplete=\"off\" size=\"24\" placeholder=\"name or account/user\">" +
    "<button type=\"submit\">Find</button></form><span id=\"find-msg\" role=\"status\"></span>" +
    "<button id=\"back\" type=\"button\">Back (Esc)</button>" +
    "<nav id=\"crumbs\" aria-label=\"Zoomed into\"></nav></div>" +
    "<div class=\"legend\" id=\"legend\"></div>" +
    "<div id=\"tree-wrap\"><div id=\"icicle\" role=\"group\" aria-label=\"association tree\"></div>" +
    "<aside id=\"info\" aria-live=\"polite\"><div id=\"summary\"></div><div id=\"detail\" hidden><button id=\"to-sum\" type=\"button\">Cluster summary</button>" +
    "<h3 id=\"info-name\"></h3><dl id=\"info-dl\"></dl></div></aside></div>" +
    "<div id=\"more-list\" hidden><h3 id=\"more-h\"></h3><button id=\"more-close\" type=\"button\">Close</button>" +
    "<div id=\"more-scroll\"></div></div>" +
    "<datalist id=\"names\"></datalist>"));
  app.appendChild(el("section", { id: "queue-section", "aria-labelledby": "queue-h" },
    "<h2 id=\"queue-h\">Queue</h2>" +
    "<div class=\"bar-row\"><label>Partition <select id=\"f-part\"><option value=\"\">every one</option></select></label>" +
    "<label>Account <input id=\"f-account\" list=\"acct-names\" size=\"14\"></label>" +
    "<label>User <input id=\"f-user\" list=\"names\" size=\"14\"></label>" +
    "<label>Highlight user <input id=\"f-mark\" list=\"names\" size=\"14\"></label></div>" +
    "<div class=\"legend\" id=\"factor-legend\"></div><p id=\"queue-note\"></p><div id=\"queue\"></div>" +
    "<datalist id=\"acct-names\"></datalist>"));
  /* the History section (report_history.js): each account's usage
   * against its shares over --history's snapshots, or where they come
   * from; NOWROW: the accounts' rows of this page's snapshot */
  var HI = data("data-history"), nowRow = {};
  (FS ? FS.rows : []).forEach(function (r) { if (!r.user) nowRow[r.account] = r; });
  var histEl = el("section", { id: "history-section", "aria-labelledby": "hist-h" },
    mfHistory.section(HI, nowRow, esc));
  app.appendChild(histEl);
  mfHistory.wire(histEl, HI, nowRow, esc);
  app.appendChild(el("section", { id: "settings-section", "aria-labelledby": "set-h" },
    "<h2 id=\"set-h\">Settings and findings</h2><div id=\"findings\"></div><div id=\"settings\"></div>"));

  var ice = document.getElementById("icicle"), moreOf = {};
  var WT = data("data-waits");
  var view = root, history = [];

  function fmt(v) { return v == null ? "(none)" : String(v); }
  function showInfo(n) {
    var r = n.row, h = "";
    document.getElementById("info-name").textContent =
      (r.user ? "User " + r.user + " in " + r.account : "Account " + r.account);
    HELP.forEach(function (k) {
      h += "<dt>" + k[1] + "</dt><dd class=\"num\" data-key=\"" + k[0] + "\">" +
        esc(fmt(r[k[0]])) + "</dd><dd class=\"help\">" + k[2] + "</dd>";
    });
    document.getElementById("info-dl").innerHTML = h;
    document.getElementById("summary").hidden = true;
    document.getElementById("detail").hidden = false;
  }
  function showSummary() {
    document.getElementById("summary").hidden = false;
    document.getElementById("detail").hidden = true;
  }
  var sumEl = document.getElementById("summary");
  sumEl.innerHTML = mfRank.summary(nodes, WT, esc, HI,
                                   PR && PR.settings ? PR.settings.now : null);
  document.getElementById("to-sum").addEventListener("click", showSummary);
  ice.addEventListener("mouseleave", showSummary);
  /* the "+N more" list of the children of node PID */
  var moreState = { pid: null, key: "gap", desc: true };
  function openMore(pid) {
    var rest = moreOf[pid];
    if (!rest) return;
    moreState.pid = pid;
    var box = document.getElementById("more-list");
    document.getElementById("more-h").textContent = rest.length + " more " +
      (rest[0].row.user ? "users" : "accounts") + " in " + nodes[pid].name + " (click a heading to sort)";
    document.getElementById("more-scroll").innerHTML = mfRank.moreTable(rest, moreState.key, moreState.desc, esc);
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }
  document.getElementById("more-list").addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("button[data-sort], a[data-id]") : null;
    if (!t) return;
    e.preventDefault();
    if (t.dataset.sort) {
      if (moreState.key === t.dataset.sort) moreState.desc = !moreState.desc;
      else { moreState.key = t.dataset.sort; moreState.desc = t.dataset.sort !== "name"; }
      openMore(moreState.pid);
    } else {
      var n = nodes[+t.dataset.id];
      document.getElementById("more-list").hidden = true;
      zoomTo(n.row.user ? n.parent : n);
      showInfo(n);
    }
  });
  document.getElementById("more-close").addEventListener("click", function () {
    document.getElementById("more-list").hidden = true;
  });
  sumEl.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a[data-id]") : null;
    if (!a) return;
    e.preventDefault();
    var n = nodes[+a.dataset.id];
    if (n.parent) zoomTo(n.parent);
    showInfo(n);
  });

  /* draw VIEW's subtree sideways: a column per level that has a box to
   * show (the view's own a narrow one), each box's height its share of
   * its parent's, at least a pixel; a name where the box is a line (11
   * px) high */
  function draw() {
    var W = ice.clientWidth, H = ice.clientHeight, boxes = [], cols = 1;
    /* a crowded level: its leading children by gap, the rest in one
     * "+N more" box (mfRank.layout, report_rank.js) */
    (function place(n, y, h, d) {
      boxes.push([n, y, h, d]);
      cols = Math.max(cols, d + 1);
      var kids = mfRank.layout(n, y, h, weight);
      kids.forEach(function (k) {
        if (k[0]) { if (k[2] >= 1) place(k[0], k[1], k[2], d + 1); }
        else {
          boxes.push([{ more: kids.rest, parent: n }, k[1], k[2], d + 1]);
          cols = Math.max(cols, d + 2);
        }
      });
    })(view, 0, H, 0);
    var first = cols > 1 ? Math.min(120, W / cols) : W;
    var cw = cols > 1 ? (W - first) / (cols - 1) : W;
    var frag = document.createDocumentFragment();
    ice.innerHTML = "";
    moreOf = {};
    boxes.forEach(function (p) {
      var n = p[0], h = p[2], d = p[3];
      if (n.more) {
        var m = document.createElement("div"), users = n.more[0].row.user;
        m.className = "box more";
        m.style.left = (d ? first + (d - 1) * cw : 0) + "px";
        m.style.top = p[1] + "px";
        m.style.width = (d ? cw : first) + "px";
        m.style.height = h + "px";
        m.tabIndex = 0;
        m.setAttribute("role", "button");
        m.dataset.more = n.parent.id;
        m.dataset.depth = d;
        m.textContent = "+" + n.more.length + " more " + (users ? "users" : "accounts");
        m.setAttribute("aria-label", m.textContent + " in " + n.parent.name);
        moreOf[n.parent.id] = n.more;
        frag.appendChild(m);
        return;
      }
      var b = document.createElement("div"), t = shade(n);
      b.className = "box" + (n.row.user ? " user" : "") + (t != null && t < 0.55 ? " dark" : "");
      b.style.left = (d ? first + (d - 1) * cw : 0) + "px";
      b.style.top = p[1] + "px";
      b.style.width = (d ? cw : first) + "px";
      b.style.height = h + "px";
      b.style.background = t == null ? "#bbbbbb" : viridis(t);
      b.tabIndex = 0;
      b.setAttribute("role", "button");
      b.setAttribute("aria-label", (n.row.user ? "user " : "account ") + n.name);
      b.dataset.id = n.id;
      b.dataset.account = n.row.account;
      if (n.row.user) b.dataset.user = n.row.user;
      if (n.parent) b.dataset.parent = n.parent.row.account;
      b.dataset.depth = d;
      if (h >= 11) b.textContent = n.name;
      frag.appendChild(b);
    });
    ice.appendChild(frag);
    var c = document.getElementById("crumbs"), chain = [], p = view;
    for (; p; p = p.parent) chain.unshift(p);
    c.innerHTML = "";
    chain.forEach(function (n, i) {
      var b = el("button", { type: "button" }, esc(n.name));
      b.addEventListener("click", function () { zoomTo(n); });
      if (i) c.appendChild(document.createTextNode(" / "));
      c.appendChild(b);
    });
  }
  function zoomTo(n, noHistory) {
    if (!n || n === view) return;
    if (!noHistory) history.push(view);
    view = n;
    draw();
  }
  function back() {
    if (history.length) { view = history.pop(); draw(); }
    else if (view && view.parent) { view = view.parent; draw(); }
    var b = ice.querySelector(".box");
    if (b) b.focus();
  }
  function boxNode(e) {
    var b = e.target.closest ? e.target.closest(".box") : null;
    return b && b.dataset.id != null ? nodes[+b.dataset.id] : null;
  }
  function moreBox(e) {
    var b = e.target.closest ? e.target.closest(".box.more") : null;
    return b ? b.dataset.more : null;
  }
  ice.addEventListener("click", function (e) {
    if (moreBox(e) != null) { openMore(moreBox(e)); return; }
    var n = boxNode(e);
    if (n && !n.row.user) { zoomTo(n); var b = ice.querySelector(".box"); if (b) b.focus(); }
  });
  ice.addEventListener("keydown", function (e) {
    if (moreBox(e) != null && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      openMore(moreBox(e));
      return;
    }
    var n = boxNode(e);
    if (n && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      zoomTo(n);
      var b = ice.querySelector(".box");
      if (b) b.focus();
    }
  });
  ice.addEventListener("mouseover", function (e) { var n = boxNode(e); if (n) showInfo(n); });
  ice.addEventListener("focusin", function (e) { var n = boxNode(e); if (n) showInfo(n); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { e.preventDefault(); back(); }
  });
  document.getElementById("back").addEventListener("click", back);
  document.getElementById("find-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var q = document.getElementById("find").value.trim(), msg = document.getElementById("find-msg");
    /* "account/user" names one user association; a bare name every
     * account and user of that name */
    var slash = q.indexOf("/"), a = q.slice(0, slash), u = q.slice(slash + 1);
    var hits = nodes.filter(function (n) {
      if (slash >= 0) return n.row.account === a && n.row.user === u;
      return n.row.user ? n.row.user === q : n.row.account === q;
    });
    if (!hits.length) { msg.textContent = "No account or user " + q; return; }
    zoomTo(hits[0]);
    var b = ice.querySelector(".box");
    if (b) { b.classList.add("found"); b.focus(); }
    msg.textContent = (hits[0].row.user ? "User " : "Account ") + q +
      (hits.length > 1 ? ": " + hits.length + " associations, the first shown (account/user names one)" : "");
  });
  window.addEventListener("resize", draw);

  var legend = document.getElementById("legend"), ramp = [];
  for (var i = 0; i <= 10; i++) ramp.push(viridis(i / 10));
  var grad = "linear-gradient(to right," + ramp.join(",") + ")";
  legend.innerHTML =
    "<span>Users: fair-share factor 0 <span class=\"ramp\" style=\"background:" + grad + "\"></span> 1</span>" +
    "<span>Accounts: level fair-share 1/8 <span class=\"ramp\" style=\"background:" + grad +
    "\"></span> 8 or no usage (1 in the middle)</span><span><span class=\"key\" style=\"background:#bbb\"></span>no figure</span>";
  var names = {}, opts = [];
  nodes.forEach(function (n) { names[n.row.user || n.row.account] = 1; });
  Object.keys(names).sort().forEach(function (k) { opts.push("<option value=\"" + esc(k) + "\">"); });
  document.getElementById("names").innerHTML = opts.join("");

  /* --- the queue: the heads of the partitions, in the order given */
  var FACT = [["age", "#E69F00"], ["assoc", "#56B4E9"], ["fairshare", "#009E73"],
              ["jobsize", "#F0E442"], ["partition", "#0072B2"], ["qos", "#D55E00"],
              ["tres", "#CC79A7"]];
  var rowOf = {}, top = 1;
  (PR ? PR.rows : []).forEach(function (r) {
    rowOf[r.job_id + "\t" + r.partition] = r;
    top = Math.max(top, r.priority);
  });
  function weighted(r, f) {
    var v = r.weighted[f];
    if (f !== "tres") return v || 0;
    var s = 0;
    for (var k in v) s += v[k];
    return s;
  }
  document.getElementById("factor-legend").innerHTML = "Weighted factors: " +
    FACT.map(function (f) {
      return "<span><span class=\"key\" style=\"background:" + f[1] + "\"></span>" + f[0] + "</span>";
    }).join(" ");
  var parts = QU ? QU.partitions : [], acctSeen = {};
  var fp = document.getElementById("f-part");
  parts.forEach(function (p) {
    fp.appendChild(el("option", { value: p.name }, esc(p.name)));
    p.accounts.forEach(function (a) { acctSeen[a[0]] = 1; });
  });
  document.getElementById("acct-names").innerHTML = Object.keys(acctSeen).sort().map(function (a) {
    return "<option value=\"" + esc(a) + "\">";
  }).join("");
  function drawQueue() {
    var fpv = fp.value, fa = document.getElementById("f-account").value.trim();
    var fu = document.getElementById("f-user").value.trim(), h = "";
    var fm = document.getElementById("f-mark").value.trim();
    parts.forEach(function (p) {
      if (fpv && p.name !== fpv) return;
      var shown = p.ranked.length, left = p.rows - shown, body = "", n = 0, marks = [];
      p.ranked.forEach(function (id, i) {
        var r = rowOf[id + "\t" + p.name];
        if (!r || (fa && r.account !== fa) || (fu && r.user !== fu)) return;
        n++;
        if (fm && r.user === fm) marks.push(i + 1);
        var bar = FACT.map(function (f) {
          var v = weighted(r, f[0]);
          return v > 0 ? "<span style=\"width:" + (100 * v / top).toFixed(3) + "%;background:" + f[1] +
            "\" title=\"" + f[0] + " " + v + "\"></span>" : "";
        }).join("");
        body += "<tr class=\"job" + (fm && r.user === fm ? " mine" : "") + "\" data-job=\"" + r.job_id + "\" data-user=\"" + esc(r.user) +
          "\" data-account=\"" + esc(r.account) + "\"><td class=\"rank\">" + (i + 1) + "</td><td>" + r.job_id +
          "</td><td class=\"l\">" + esc(r.user) + "</td><td class=\"l\">" + esc(r.account) + "</td><td class=\"l\">" +
          esc(r.qos) + "</td><td class=\"prio\">" + r.priority + "</td><td class=\"l\"><span class=\"stack\">" +
          bar + "</span></td></tr>";
      });
      var acc = p.accounts.filter(function (a) { return !fa || a[0] === fa; }).slice(0, 50).map(function (a) {
        return "<tr><td class=\"l\">" + esc(a[0]) + "</td><td>" + a[1] + "</td><td>" + a[2] + "</td></tr>";
      }).join("");
      h += "<section class=\"part\" data-part=\"" + esc(p.name) + "\"><h3>" + esc(p.name) +
        " (PriorityTier " + p.tier + "): " + p.rows + " pending, the first " + shown + " on this page" +
        (fa || fu ? ", " + n + " of them match the filter" : "") + "</h3>" +
        (left > 0 ? "<p class=\"left-out\">" + left + " rows left out (ranks " + (shown + 1) + " to " + p.rows +
          "): mfprio priority -p " + esc(p.name) + " lists them all; the accounts below count them.</p>" : "") +
        (fm ? "<p class=\"marks\">" + esc(fm) + ": " + (marks.length ? "rank " + marks.join(", ") :
          "no job among these") + "</p>" : "") +
        "<table><thead><tr><th>Rank</th><th>Job</th><th class=\"l\">User</th><th class=\"l\">Account</th>" +
        "<th class=\"l\">QOS</th><th>Priority</th><th class=\"l\">Weighted factors</th></tr></thead><tbody>" +
        body + "</tbody></table><details><summary>Accounts with pending jobs here (" + p.accounts.length +
        ")</summary><table><thead><tr><th class=\"l\">Account</th><th>Pending</th><th>Best rank</th></tr></thead><tbody>" +
        acc + "</tbody></table></details></section>";
    });
    document.getElementById("queue").innerHTML = h || "<p>No pending job.</p>";
  }
  ["f-part", "f-account", "f-user", "f-mark"].forEach(function (id) {
    document.getElementById(id).addEventListener("input", drawQueue);
  });
  document.getElementById("queue-note").textContent = QU && QU.top_n ?
    "Each partition's first " + QU.top_n + " jobs by rank (mfprio report --top N)." : "Every pending job.";

  /* --- settings and findings */
  var S = PR ? PR.settings : {}, st = "";
  /* the time and the durations as a reader says them */
  function readable(k, v) {
    if (typeof v !== "number") return "";
    if (k === "now") return " (" + new Date(v * 1000).toISOString().replace(".000Z", " UTC") + ")";
    if (k === "max_age" || k === "decay_half_life") return " s (" + (v / 86400) + " days)";
    return "";
  }
  (function flat(o, pre) {
    for (var k in o) {
      if (k === "inputs") continue;
      var v = o[k];
      if (v && typeof v === "object" && !Array.isArray(v)) flat(v, pre + k + ".");
      else st += "<tr><th class=\"l\">" + esc(pre + k) + "</th><td class=\"l\">" +
        esc(Array.isArray(v) ? (v.join(", ") || "(none)") : fmt(v)) + esc(readable(k, v)) + "</td></tr>";
    }
  })(S, "");
  document.getElementById("settings").innerHTML = "<h3>Settings in force</h3><table>" + st + "</table>";
  var F = CK ? CK.findings : [];
  document.getElementById("findings").innerHTML = "<h3>mfprio check</h3>" + (F.length ?
    "<ul class=\"findings\">" + F.map(function (f) {
      return "<li><b>" + esc(f.kind) + "</b>: " + esc(f.finding) + ". <i>Fix:</i> " + esc(f.fix) + ".</li>";
    }).join("") + "</ul>" : "<p>No finding.</p>");

  draw();
  drawQueue();
  window.mfReportRenderMs = performance.now() - t0;
  document.body.dataset.renderMs = window.mfReportRenderMs.toFixed(1);
})();
