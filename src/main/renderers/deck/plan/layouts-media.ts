// Layouts led by a picture or data: image, image_text, full_image, chart, table.
import { captionBand, captionBandText, FIT_SLACK, imageTextRegions, opticalTop, TITLE_LINE_HEIGHT } from '../../../../shared/specs/deck-geometry';
import { bulletElements, bulletTexts, fitBullets } from './bullets';
import { planChart } from './chart';
import { type Planner, SlideBuilder } from './context';
import { composePicture } from './layouts-body';
import { contentSlide, heroSlide, placeholderPanel, placePicture, rect } from './slides';
import { planTable } from './table';
import { fitText } from './text';

export const planImage: Planner<'image'> = (ctx, s) => {
  const { slide, body } = contentSlide(ctx, s.title);
  ctx.report.checkWords([s.title, s.caption ?? '']);
  const composed = composePicture(ctx, new SlideBuilder('content', ctx.theme.palette.background), s.image, s.caption, body, 'figure');
  slide.take(composed.scratch, opticalTop(body, composed.height) - body.y);
  return [slide];
};

export const planImageText: Planner<'image_text'> = (ctx, s) => {
  const p = ctx.theme.palette;
  const { slide, body } = contentSlide(ctx, s.title);
  const texts = s.bullets ? bulletTexts(s.bullets) : [s.text ?? ''];
  ctx.report.checkWords([s.title, ...texts, s.caption ?? '']);
  const regions = imageTextRegions(body, s.image_side);
  const pic = composePicture(ctx, new SlideBuilder('content', p.background), s.image, s.caption, regions.image, 'figure');
  slide.take(pic.scratch, opticalTop(regions.image, pic.height) - regions.image.y);
  if (s.bullets) {
    const fit = fitBullets(ctx, s.bullets, regions.text, { what: 'text beside the picture', allowColumns: false, allowSplit: false });
    for (const note of fit.notes) slide.addNote(note);
    for (const el of bulletElements(ctx, fit, 0, regions.text, 'body')) slide.add(el);
  } else {
    const scratch = new SlideBuilder('content', p.background);
    const fitted = fitText(ctx, scratch, s.text ?? '', regions.text, {
      id: 'body', role: 'body', font: 'body', sizePt: ctx.theme.sizes.body, floorPt: 18, maxPt: ctx.theme.sizes.body + 4, growFill: 0.6, color: p.text, what: 'text beside the picture',
    });
    scratch.add({ ...fitted.element, box: { ...regions.text, h: fitted.height + FIT_SLACK } });
    slide.take(scratch, opticalTop(regions.text, fitted.height) - regions.text.y);
  }
  return [slide];
};

export const planFullImage: Planner<'full_image'> = (ctx, s) => {
  const { theme, size } = ctx;
  const p = theme.palette;
  const slide = heroSlide(ctx, p.titleBackground);
  const scratch = new SlideBuilder('plain', p.titleBackground);
  const inner = captionBandText(size, captionBand(size, size.h * 0.45));
  let textH = 0;
  const pieces = [];
  if (s.title) {
    const title = fitText(ctx, scratch, s.title, { ...inner, h: inner.h * 0.6 }, {
      id: 'title', role: 'title', font: 'heading', sizePt: theme.sizes.title, floorPt: 24, bold: true, color: p.titleText,
      background: p.titleBackground, lineHeight: TITLE_LINE_HEIGHT, maxLines: 2, what: 'title',
    });
    pieces.push({ fit: title, y: textH });
    textH += title.height;
  }
  if (s.caption) {
    const gap = s.title ? 0.12 : 0;
    const caption = fitText(ctx, scratch, s.caption, { ...inner, h: inner.h * 0.4 }, {
      id: 'caption', role: 'caption', font: 'body', sizePt: theme.sizes.body - 4, floorPt: 16, color: p.titleMuted,
      background: p.titleBackground, lineHeight: 1.25, maxLines: 3, what: 'caption',
    });
    pieces.push({ fit: caption, y: textH + gap });
    textH += gap + caption.height;
  }
  // The picture fills the slide above the band (so the band never hides part of it).
  const band = pieces.length > 0 ? captionBand(size, textH) : null;
  placePicture(ctx, slide, 'picture', s.image, { x: 0, y: 0, w: size.w, h: band ? band.y : size.h }, 'cover');
  if (band) {
    slide.add(rect('caption-band', band, p.titleBackground));
    const text = captionBandText(size, band);
    for (const piece of pieces) slide.add({ ...piece.fit.element, box: { ...text, y: text.y + piece.y, h: piece.fit.height + FIT_SLACK } });
  }
  const built = scratch.build(0);
  if (built.notes) slide.addNote(built.notes);
  return [slide];
};

export const planChartSlide: Planner<'chart'> = (ctx, s) => {
  const { slide, body } = contentSlide(ctx, s.title);
  ctx.report.checkContrast('chart labels', ctx.theme.palette.text, ctx.theme.palette.background);
  ctx.report.checkWords([s.title, s.chart.title ?? '']);
  // A series of zeros draws nothing: it is left out, and a chart of nothing else is a placeholder.
  const zero = s.chart.series.filter((series) => series.values.every((v) => v === 0));
  if (zero.length === s.chart.series.length) {
    const zh = ctx.language.startsWith('zh');
    placeholderPanel(ctx, slide, 'chart-placeholder', body, zh ? '图表未绘制：所有数值均为 0' : 'Chart not drawn: every value is 0');
    ctx.report.add('placeholder', 'every value of the chart is 0, so it would show nothing: a placeholder is drawn instead; give the real numbers or say it in text');
    return [slide];
  }
  for (const series of zero) ctx.report.add('hidden_series', `series "${series.name}" is 0 everywhere: left out of the chart`);
  const chart = zero.length > 0 ? { ...s.chart, series: s.chart.series.filter((series) => !zero.includes(series)) } : s.chart;
  slide.add(planChart(ctx, chart, body));
  return [slide];
};

export const planTableSlide: Planner<'table'> = (ctx, s) => {
  const p = ctx.theme.palette;
  const first = contentSlide(ctx, s.title);
  ctx.report.checkEmptiness(s.table.rows.flat(), false);
  ctx.report.checkWords([s.title, ...s.table.header, ...s.table.rows.slice(0, 8).flat()]);
  if (s.table.rows.length === 0) ctx.report.add('empty', 'the table has a header but no rows');
  ctx.report.checkContrast('table header', p.tableHeaderText, p.tableHeader);
  ctx.report.checkContrast('table text', p.tableText ?? p.text, p.tableFill ?? p.background);
  const pages = planTable(ctx, s.table, first.body);
  return pages.map((table, i) => {
    const page = i === 0 ? first : contentSlide(ctx, s.title, i);
    // A table shorter than the body sits in its optical middle, not pinned under the title.
    page.slide.add({ ...table, box: { ...table.box, x: page.body.x, y: opticalTop(page.body, table.box.h), w: page.body.w } });
    return page.slide;
  });
};
