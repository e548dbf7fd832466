#!/usr/bin/env python3
"""check-html.py — RMP_PROFILE's report.html as a browser shows it (tests/integration/test_prof.c):
  check-html.py DIR RANKS
1. the page is well-formed: python's html.parser, every element closed in order (void ones
   excepted), nothing after </html>; and xmllint --html --noout when libxml2-utils is there;
2. Debian's Chromium (headless) runs its script: --dump-dom shows data-drawn="ok" on <body>,
   no data-errors (the page's window.onerror records every uncaught error there), and a heat
   map of G^2 cells per matrix (G groups of ceil(RANKS / 64) ranks: RANKS up to 64);
3. a screenshot (--screenshot) decoded here (PNG through python's zlib, filters undone) is
   1200 x 1000 and holds coloured heat-map pixels (saturated, not grey) in the matrices' area.
Prints one line per problem and "check-html: OK"; exit 0, 1 on a problem, 77 when chromium is
absent (the test then says it skipped, and why)."""
import html.parser
import os
import shutil
import struct
import subprocess
import sys
import zlib

VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base", "wbr", "source"}
problems = []


class Nesting(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.done = [], False

    def handle_starttag(self, tag, attrs):
        if self.done:
            problems.append(f"<{tag}> after </html>")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()
        self.done = tag == "html"


def check_nesting(page):
    p = Nesting()
    p.feed(page)
    p.close()
    if p.stack:
        problems.append(f"unclosed: {p.stack}")
    if shutil.which("xmllint"):
        r = subprocess.run(["xmllint", "--html", "--noout", "-"], input=page.encode(),
                           capture_output=True)
        # HTML4's parser knows no HTML5 element names; anything else it says is a problem
        errs = [l for l in r.stderr.decode().splitlines()
                if "error" in l and "Tag" not in l and "invalid" not in l.lower()]
        if errs:
            problems.append("xmllint: " + errs[0])
    if "http://" in page.replace("http://www.w3.org/2000/svg", "") or "https://" in page:
        problems.append("the page names a network address")


def chromium(args, url):
    cmd = [CHROME, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--user-data-dir=" + os.path.join(DIR, ".chromium")] + args + [url]
    return subprocess.run(cmd, capture_output=True, timeout=120)


def check_dom(url, ranks):
    dom = chromium(["--dump-dom"], url).stdout.decode()
    if 'data-drawn="ok"' not in dom:
        problems.append("the script did not finish drawing (no data-drawn=\"ok\")")
    if 'data-errors="' in dom:
        start = dom.index('data-errors="')
        problems.append("console errors: " + dom[start:start + 200])
    per = -(-ranks // 64)  # ranks per row and column past 64 (the page's grouping)
    cells = (-(-ranks // per)) ** 2
    for mid in ("mbytes", "mmsgs"):
        at = dom.find(f'id="{mid}"')
        heat = dom.find('class="heat"', at)
        end = dom.find("</g>", heat)
        n = dom.count("<rect", heat, end) if at >= 0 and heat >= 0 else 0
        if n != cells:
            problems.append(f"{mid}: {n} heat-map cells, expected {cells}")


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError(f"PNG depth {depth} colour type {ctype}")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def check_shot(url):
    shot = os.path.join(DIR, "screenshot.png")
    chromium(["--window-size=1200,1000", "--screenshot=" + shot], url)
    if not os.path.exists(shot):
        problems.append("chromium wrote no screenshot")
        return
    w, h, bpp, rows = png_pixels(shot)
    if (w, h) != (1200, 1000):
        problems.append(f"screenshot is {w}x{h}, expected 1200x1000")
    coloured = 0
    for y in range(130, min(h, 560)):  # the matrices' band, below the headings
        line = rows[y]
        for x in range(60, min(w, 1100)):
            r, g, b = line[x * bpp], line[x * bpp + 1], line[x * bpp + 2]
            coloured += max(r, g, b) - min(r, g, b) > 60
    if coloured < 2000:
        problems.append(f"the heat map area holds {coloured} coloured pixels (expected > 2000)")


def main():
    global DIR, CHROME
    DIR, ranks = sys.argv[1], int(sys.argv[2])
    page = open(os.path.join(DIR, "report.html"), encoding="utf-8").read()
    check_nesting(page)
    CHROME = shutil.which("chromium") or shutil.which("chromium-browser")
    if not CHROME:
        print("check-html: SKIP: chromium is not installed (tests/install-deps.sh installs it)")
        sys.exit(77)
    url = "file://" + os.path.abspath(os.path.join(DIR, "report.html"))
    check_dom(url, ranks)
    check_shot(url)
    for p in problems:
        print("check-html: FAIL: " + p)
    if not problems:
        print("check-html: OK")
    sys.exit(1 if problems else 0)


main()
