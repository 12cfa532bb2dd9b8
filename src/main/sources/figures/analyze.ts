// Finding figures on a laid-out PDF page (layout.ts reads the layout): which caption ("Figure 3.",
// "Fig. 3:", "图 3 …") belongs to each painted image, and where a figure that is drawn with paths
// rather than embedded as an image lies. Heuristic, and said so to the model:
// - a caption is a line that starts with Figure/Fig./图/圖 and a number, followed by punctuation
//   or, for 图, by a space and text (so "Figure 3 shows …" in running text is not one);
// - an image's caption is the nearest one that overlaps it horizontally, below it (within a fifth
//   of the page) or, second choice, above it (within a tenth);
// - a caption no image claims is a drawn figure's when filled or stroked paths lie just above it:
//   the nearest path within an inch, then every path connected to those by gaps under 28 pt, in
//   the caption's column; the text lines inside that area (axis labels) widen it.
// Coordinates are PDF points from the top left of the displayed page.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlacedImage extends Box {
  /** The image's own size in pixels (not as displayed). */
  pxWidth: number;
  pxHeight: number;
}

export interface TextLine extends Box {
  text: string;
}

export interface PageLayout {
  page: number;
  /** The displayed page size in points. */
  width: number;
  height: number;
  /** Every image painted, in drawing order. */
  images: PlacedImage[];
  /** Bounding boxes of filled or stroked paths. */
  paths: Box[];
  lines: TextLine[];
}

export interface PageFigures {
  page: number;
  width: number;
  height: number;
  /** Every image painted, in drawing order, with the caption found for it. */
  images: (PlacedImage & { caption: string | null })[];
  /** Figures drawn with paths, found above a caption no image claimed. */
  drawings: (Box & { caption: string })[];
  /** Figure captions with neither an image nor a drawing found near them. */
  orphanCaptions: string[];
}

/** Images smaller than this (pixels, either side) are icons and bullets, not figures. */
export const MIN_FIGURE_PX = 64;

const CAPTION = /^(?:(?:figure|fig\.?)\s*\d+(?:[.\-–]\d+)*[a-z]?\s*(?:[:：.．|—–-]|$)|[图圖]\s*\d+(?:[.\-–]\d+)*(?:\s*[:：.．、]|\s+\S|$))/iu;
const MAX_CAPTION_CHARS = 300;
const FIRST_GAP_PT = 72;
const LINK_GAP_PT = 28;
const PAD_PT = 4;

export function isCaptionStart(text: string): boolean {
  return CAPTION.test(text.trim());
}

interface Caption extends Box {
  text: string;
}

/** Caption lines, each with the lines right below it that continue it (close, and not a new caption). */
function captionsOf(lines: readonly TextLine[]): Caption[] {
  const captions: Caption[] = [];
  lines.forEach((line, i) => {
    if (!isCaptionStart(line.text)) return;
    let text = line.text.trim();
    let bottom = line.y + line.h;
    for (const next of lines.slice(i + 1, i + 3)) {
      const gap = next.y - bottom;
      if (gap < -line.h * 0.3 || gap > line.h * 0.8 || isCaptionStart(next.text) || text.length >= MAX_CAPTION_CHARS) break;
      const cjk = /[\u3000-\u9fff\uff00-\uffef]$/u.test(text);
      text += (cjk ? '' : ' ') + next.text.trim();
      bottom = next.y + next.h;
    }
    captions.push({ ...line, text: text.length > MAX_CAPTION_CHARS ? `${text.slice(0, MAX_CAPTION_CHARS - 1)}…` : text });
  });
  return captions;
}

function overlapsX(a: Box, b: Box, slack = 0): boolean {
  return a.x - slack < b.x + b.w && b.x - slack < a.x + a.w;
}

function union(a: Box | null, b: Box): Box {
  if (!a) return { ...b };
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/** The caption nearest to `image`: below it first, above it second; null when none is close. */
function captionFor(image: Box, captions: readonly Caption[], page: { width: number; height: number }): Caption | null {
  let best: Caption | null = null;
  let bestScore = Infinity;
  for (const c of captions) {
    if (!overlapsX(image, c, page.width * 0.05)) continue;
    const below = c.y - (image.y + image.h);
    const above = image.y - (c.y + c.h);
    let score = Infinity;
    if (below >= -4 && below <= page.height * 0.2) score = Math.max(0, below);
    else if (above >= -4 && above <= page.height * 0.1) score = Math.max(0, above) * 2 + 10;
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/** The drawing above `caption`, grown from the nearest path upward through connected paths. */
function drawingAbove(caption: Caption, layout: PageLayout): Box | null {
  const band = { x: caption.x - layout.width * 0.25, y: 0, w: caption.w + layout.width * 0.5, h: layout.height };
  const candidates = layout.paths
    .filter((p) => p.y + p.h <= caption.y + 2 && !(p.w >= layout.width * 0.9 && p.h >= layout.height * 0.9))
    .filter((p) => p.x + p.w / 2 >= band.x && p.x + p.w / 2 <= band.x + band.w && p.y >= caption.y - layout.height * 0.75)
    .sort((a, b) => b.y + b.h - (a.y + a.h));
  let region: Box | null = null;
  let edge = caption.y;
  for (const p of candidates) {
    const gap = edge - (p.y + p.h);
    if (gap > (region ? LINK_GAP_PT : FIRST_GAP_PT)) break;
    region = union(region, p);
    edge = Math.min(edge, p.y);
  }
  if (!region) return null;
  // Labels drawn as text (ticks, legends, axis titles) inside the drawing's rows widen it.
  for (const line of layout.lines) {
    if (line.y >= region.y - 2 && line.y + line.h <= caption.y + 1 && overlapsX(line, region) && !isCaptionStart(line.text)) region = union(region, line);
  }
  const x = Math.max(0, region.x - PAD_PT);
  const y = Math.max(0, region.y - PAD_PT);
  const box = { x, y, w: Math.min(layout.width, region.x + region.w + PAD_PT) - x, h: Math.min(caption.y, region.y + region.h + PAD_PT) - y };
  return box.w >= 72 && box.h >= 48 ? box : null;
}

export function findFigures(layout: PageLayout): PageFigures {
  const captions = captionsOf(layout.lines);
  const claimed = new Set<Caption>();
  const images = layout.images.map((image) => {
    const caption = captionFor(image, captions, layout);
    // Icons do not claim captions: a caption next to a bullet icon is still a drawn figure's.
    if (caption && image.pxWidth >= MIN_FIGURE_PX && image.pxHeight >= MIN_FIGURE_PX) claimed.add(caption);
    return { ...image, caption: caption?.text ?? null };
  });
  const drawings: PageFigures['drawings'] = [];
  const orphanCaptions: string[] = [];
  for (const caption of captions) {
    if (claimed.has(caption)) continue;
    const box = drawingAbove(caption, layout);
    if (box) drawings.push({ ...box, caption: caption.text });
    else orphanCaptions.push(caption.text);
  }
  return { page: layout.page, width: layout.width, height: layout.height, images, drawings, orphanCaptions };
}
