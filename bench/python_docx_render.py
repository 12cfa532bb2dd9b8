"""The python-docx baseline for bench/document.bench.ts.

Reads the same proposal folder Folio renders (document.json + sections/*.md) and builds the same
structural content: a cover, headings, paragraphs with bold runs, bullet and numbered lists, and
tables. It parses only the Markdown subset bench/proposal-fixture.ts writes. No table of contents,
heading numbering, footnotes or quality report, which Folio does and this does not.

Usage: python3 python_docx_render.py <folder> <out.docx>
Prints one JSON line: build_seconds (excluding interpreter start-up and imports), start_rss_mb,
maxrss_mb, paragraphs, tables.

Peak memory is VmHWM from /proc/self/status, not getrusage's ru_maxrss: Linux carries ru_maxrss over
execve, so a script spawned by Node would report the forked Node process's footprint instead.
"""
import json
import os
import re
import resource
import sys
import time

from docx import Document
from docx.enum.text import WD_BREAK
from docx.oxml.ns import qn
from docx.shared import Mm, Pt

BOLD = re.compile(r"(\*\*[^*]+\*\*)")
NUMBERED = re.compile(r"^\d+\.\s+")


def status_mb(field):
    """A memory figure of this process image from /proc/self/status (VmRSS now, VmHWM peak), in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024  # kB
    raise RuntimeError(field + " not found in /proc/self/status")


def peak_rss_mb():
    try:
        return status_mb("VmHWM")
    except (OSError, RuntimeError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def set_fonts(document):
    normal = document.styles["Normal"]
    normal.font.name = "Times New Roman"
    normal.font.size = Pt(12)
    normal.element.rPr.rFonts.set(qn("w:eastAsia"), "SimSun")
    normal.paragraph_format.line_spacing = 1.5


def set_page(document):
    section = document.sections[0]
    section.page_width, section.page_height = Mm(210), Mm(297)
    section.top_margin = section.bottom_margin = Mm(25.4)
    section.left_margin = section.right_margin = Mm(31.8)


def add_runs(paragraph, text):
    for part in BOLD.split(text):
        if not part:
            continue
        if part.startswith("**") and part.endswith("**"):
            paragraph.add_run(part[2:-2]).bold = True
        else:
            paragraph.add_run(part)


def add_table(document, lines):
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]
    rows = [row for row in rows if not all(re.fullmatch(r":?-{3,}:?", cell) for cell in row)]
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = "Table Grid"
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            paragraph = table.cell(r, c).paragraphs[0]
            run = paragraph.add_run(text)
            run.bold = r == 0


def render_markdown(document, markdown, counts):
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(lines[i])
                i += 1
            add_table(document, block)
            counts["tables"] += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            document.add_heading(heading.group(2), level=len(heading.group(1)))
        elif line.startswith("  - "):
            add_runs(document.add_paragraph(style="List Bullet 2"), line[4:])
        elif line.startswith("- "):
            add_runs(document.add_paragraph(style="List Bullet"), line[2:])
        elif NUMBERED.match(line):
            add_runs(document.add_paragraph(style="List Number"), NUMBERED.sub("", line, count=1))
        else:
            add_runs(document.add_paragraph(), line)
        counts["paragraphs"] += 1
        i += 1


def main(folder, out_path):
    start_rss = status_mb("VmRSS")
    started = time.perf_counter()
    with open(os.path.join(folder, "document.json"), encoding="utf-8") as f:
        spec = json.load(f)
    document = Document()
    set_fonts(document)
    set_page(document)
    document.core_properties.title = spec["title"]
    document.add_heading(spec["title"], level=0)
    for line in [spec.get("subtitle"), ", ".join(spec.get("authors", [])), spec.get("organization"), spec.get("date")]:
        if line:
            document.add_paragraph(line)
    document.paragraphs[-1].add_run().add_break(WD_BREAK.PAGE)
    counts = {"paragraphs": 0, "tables": 0}
    for name in spec["sections"]:
        with open(os.path.join(folder, "sections", name), encoding="utf-8") as f:
            render_markdown(document, f.read(), counts)
    document.save(out_path)
    build_seconds = time.perf_counter() - started
    maxrss_mb = peak_rss_mb()
    print(json.dumps({"build_seconds": build_seconds, "start_rss_mb": start_rss, "maxrss_mb": maxrss_mb, **counts}))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python3 python_docx_render.py <folder> <out.docx>")
    main(sys.argv[1], sys.argv[2])
