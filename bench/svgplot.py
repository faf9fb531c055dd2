# SPDX-License-Identifier: GPL-2.0-or-later
"""svgplot: the SVG pieces the bench/plot_*.py scripts share (standard
library only).

esc() escapes text, text() and line() make one element each, document()
wraps a figure's elements into an SVG document on a white background.
Axes is one panel: its scales (linear, or logarithmic in x), frame,
title, y grid with tick labels, x tick labels, axis labels, a dashed
horizontal target with its label, a dotted line through the origin, a
series drawn as a path with points (and min-max bars) and a legend.
Each method appends its elements to the list the panel was given.
"""
import math


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def num(v):
    """A coordinate: a tenth of a pixel is enough."""
    return "%g" % round(v, 1)


def text(x, y, s, size=10, anchor=None, attrs=""):
    """A <text> at X, Y (ANCHOR: start when None, middle or end)."""
    a = ' text-anchor="%s"' % anchor if anchor else ""
    return '<text x="%s" y="%s" font-size="%g"%s%s>%s</text>' % (
        num(x), num(y), size, a, attrs, esc(s))


def line(x1, y1, x2, y2, stroke, attrs=""):
    return '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>' % (
        num(x1), num(y1), num(x2), num(y2), stroke, attrs)


def document(width, height, body, prolog=()):
    """The text of an SVG document WIDTH x HEIGHT: the PROLOG lines (an XML
    declaration, comments), a white background, then the BODY elements."""
    out = list(prolog)
    out.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" '
               'height="%d" viewBox="0 0 %d %d" font-family="sans-serif">'
               % (width, height, width, height))
    out.append('<rect width="100%" height="100%" fill="white"/>')
    out += body
    out.append("</svg>")
    return "\n".join(out) + "\n"


class Axes:
    """A panel of W x H at X0, Y0 in the document, its frame inset by the
    MARGINS (left, right, top, bottom); x from XMIN to XMAX (log10 when
    LOGX), y from 0 to YMAX.  Elements go to the list OUT."""

    def __init__(self, out, x0, y0, w, h, margins, xmax, ymax, xmin=0.0,
                 logx=False):
        ml, mr, mt, mb = margins
        self.out = out
        self.x0, self.y0, self.h = x0, y0, h
        self.left, self.right = x0 + ml, x0 + w - mr
        self.top, self.bottom = y0 + mt, y0 + h - mb
        self.xmin, self.xmax, self.ymax, self.logx = xmin, xmax, ymax, logx

    def sx(self, v):
        if self.logx:
            lo, hi = math.log10(self.xmin), math.log10(self.xmax)
            f = (math.log10(v) - lo) / (hi - lo)
        else:
            f = (v - self.xmin) / (self.xmax - self.xmin)
        return self.left + (self.right - self.left) * f

    def sy(self, v):
        return self.bottom - (self.bottom - self.top) * v / self.ymax

    def frame(self, stroke="#444"):
        self.out.append('<rect x="%s" y="%s" width="%s" height="%s" '
                        'fill="none" stroke="%s"/>'
                        % (num(self.left), num(self.top),
                           num(self.right - self.left),
                           num(self.bottom - self.top), stroke))

    def title(self, s, size=13, bold=True):
        """Centred above the frame."""
        self.out.append(text((self.left + self.right) / 2, self.y0 + 22, s,
                             size, "middle",
                             ' font-weight="bold"' if bold else ""))

    def ygrid(self, n=5, fmt="%.3g"):
        """N + 1 grid lines from 0 to the top, labelled with FMT."""
        for i in range(n + 1):
            v = self.ymax * i / n
            y = self.sy(v)
            self.out.append(line(self.left, y, self.right, y, "#ddd"))
            self.out.append(text(self.left - 4, y + 3, fmt % v, anchor="end"))

    def xticks(self, ticks, grid=False):
        """TICKS: (value, label) pairs under the frame; GRID: a vertical
        grid line at each too."""
        for v, label in ticks:
            x = self.sx(v)
            if grid:
                self.out.append(line(x, self.top, x, self.bottom, "#ddd"))
            self.out.append(text(x, self.bottom + 14, label, anchor="middle"))

    def labels(self, xlabel, ylabel=None):
        """XLABEL under the x ticks, YLABEL (if any) up the left side."""
        self.out.append(text((self.left + self.right) / 2,
                             self.y0 + self.h - 10, xlabel, 11, "middle"))
        if ylabel:
            x, y = self.x0 + 15, (self.top + self.bottom) / 2
            self.out.append(text(x, y, ylabel, 11, "middle",
                                 ' transform="rotate(-90 %s %s)"'
                                 % (num(x), num(y))))

    def target(self, v, label, color="#d62728", at=None):
        """A dashed line at y = V with LABEL above it: across the frame,
        the label at its right end, or 80 pixels centred on x = AT, the
        label centred."""
        y = self.sy(v)
        if at is None:
            x1, x2 = self.left, self.right
            lx, anchor = x2 - 4, "end"
        else:
            x1, x2 = self.sx(at) - 40, self.sx(at) + 40
            lx, anchor = self.sx(at), "middle"
        self.out.append(line(x1, y, x2, y, color,
                             ' stroke-dasharray="6,4"'))
        self.out.append(text(lx, y - 4, label, anchor=anchor,
                             attrs=' fill="%s"' % color))

    def fit(self, slope):
        """A dotted line y = SLOPE * x from the origin, to the frame's edge."""
        xe = min(self.xmax, self.ymax / slope)
        self.out.append(line(self.sx(0), self.sy(0), self.sx(xe),
                             self.sy(slope * xe), "#999",
                             ' stroke-dasharray="2,3"'))

    def series(self, pts, color, dash=False, offset=0):
        """PTS: (x, y) or (x, y, low, high) in x order: a path with a point
        at each, and a bar from low to high where they differ.  DASH: a
        dashed path; OFFSET: pixels to the right, to keep series apart."""
        xy = [(self.sx(p[0]) + offset, self.sy(p[1])) for p in pts]
        d = " ".join("%s%s,%s" % ("M" if i == 0 else "L", num(x), num(y))
                     for i, (x, y) in enumerate(xy))
        dashed = ' stroke-dasharray="3,3"' if dash else ""
        self.out.append('<path d="%s" fill="none" stroke="%s" '
                        'stroke-width="2"%s/>' % (d, color, dashed))
        for p, (x, y) in zip(pts, xy):
            if len(p) == 4 and p[2] != p[3]:
                self.out.append(line(x, self.sy(p[2]), x, self.sy(p[3]),
                                     color))
            self.out.append('<circle cx="%s" cy="%s" r="3" fill="%s"/>'
                            % (num(x), num(y), color))

    def legend(self, entries, corner="top left"):
        """ENTRIES: (label, color, dash) a line, a short stroke of the series
        and its label, in the frame's top left or bottom right corner."""
        for k, (label, color, dash) in enumerate(entries):
            d = ' stroke-width="2"' + (' stroke-dasharray="3,3"' if dash
                                       else "")
            if corner == "top left":
                y = self.top + 12 + 13 * k
                self.out.append(line(self.left + 6, y, self.left + 24, y,
                                     color, d))
                self.out.append(text(self.left + 28, y + 3, label,
                                     attrs=' fill="%s"' % color))
            else:
                y = self.bottom - 10 - 13 * (len(entries) - 1 - k)
                self.out.append(line(self.right - 24, y, self.right - 6, y,
                                     color, d))
                self.out.append(text(self.right - 28, y + 3, label,
                                     anchor="end",
                                     attrs=' fill="%s"' % color))
