// Draws a planned chart element as SVG: the same series order, colours, labels and legend the .pptx
// chart has, from the same element (the plan made every decision; this only draws).
import { legendEntries } from '../../../../shared/specs/chart-order';
import { AREA_FILL_OPACITY, labelColorOn } from '../../../../shared/specs/chart-style';
import type { ChartElement } from '../../../../shared/specs/deck-plan';
import type { Theme } from '../../../../shared/specs/themes';
import { color, fontFamilyFor, inches } from '../../../lib/deck-preview';
import { barMarks, chartPieSlices, formatChartValue, linePoints, plotArea, pointColor, valueScale, type Plot } from '../../../lib/plan-chart';

export interface ChartElementViewProps {
  element: ChartElement;
  theme: Theme;
  taskId: string;
}

export function ChartElementView({ element: el, theme }: ChartElementViewProps) {
  const w = inches(el.box.w);
  const h = inches(el.box.h);
  const fs = el.fontSizePt;
  const cjk = [el.title ?? '', ...el.categories, ...el.series.map((s) => s.name)].some((t) => /[\u2E80-\uFFEF]/.test(t));
  const round = el.type === 'pie' || el.type === 'doughnut';
  const plot = plotArea(el, w, h);
  return (
    <div className="slide-box" data-kind="chart" data-id={el.id} style={{ left: inches(el.box.x), top: inches(el.box.y), width: w, height: h }}>
      <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={el.title ?? el.type} style={{ fontFamily: fontFamilyFor(theme, 'body', cjk) }}>
        {el.title && (
          <text x={w / 2} y={fs * 1.4} textAnchor="middle" fontSize={fs + 2} fill={color(el.textColor)}>
            {el.title}
          </text>
        )}
        {round ? <Pie el={el} plot={plot} /> : el.type === 'bar' || el.type === 'column' ? <Bars el={el} plot={plot} /> : <Lines el={el} plot={plot} />}
        {!round && <AxisTitles el={el} plot={plot} />}
        <Legend el={el} w={w} h={h} plot={plot} />
      </svg>
    </div>
  );
}

function ValueAxis({ el, plot }: { el: ChartElement; plot: Plot }) {
  const { min, max, ticks } = valueScale(el);
  const span = max - min || 1;
  const horizontal = el.type === 'bar';
  return (
    <g>
      {ticks.map((t, i) => {
        const at = horizontal ? plot.x + ((t - min) / span) * plot.w : plot.y + plot.h - ((t - min) / span) * plot.h;
        return horizontal ? (
          <g key={i}>
            <line x1={at} x2={at} y1={plot.y} y2={plot.y + plot.h} stroke={color(el.gridColor)} strokeWidth={0.5} />
            <text x={at} y={plot.y + plot.h + el.fontSizePt * 1.2} textAnchor="middle" fontSize={el.fontSizePt - 1} fill={color(el.mutedColor)}>
              {formatChartValue(t, el.valueAxis?.numberFormat ?? el.numberFormat)}
            </text>
          </g>
        ) : (
          <g key={i}>
            <line x1={plot.x} x2={plot.x + plot.w} y1={at} y2={at} stroke={color(el.gridColor)} strokeWidth={0.5} />
            <text x={plot.x - 6} y={at + el.fontSizePt * 0.35} textAnchor="end" fontSize={el.fontSizePt - 1} fill={color(el.mutedColor)}>
              {formatChartValue(t, el.valueAxis?.numberFormat ?? el.numberFormat)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

function Bars({ el, plot }: { el: ChartElement; plot: Plot }) {
  const horizontal = el.type === 'bar';
  const fs = el.fontSizePt;
  const n = Math.max(1, el.categories.length);
  const band = (horizontal ? plot.h : plot.w) / n;
  const marks = barMarks(el, plot);
  return (
    <g>
      {!el.dataLabels && <ValueAxis el={el} plot={plot} />}
      {marks.map((m) => (
        <rect key={`${m.series}-${m.category}`} x={m.x} y={m.y} width={Math.max(m.width, 0.5)} height={Math.max(m.height, 0.5)} fill={color(m.color)} />
      ))}
      {el.dataLabels &&
        marks.map((m) => (
          <text
            key={`l-${m.series}-${m.category}`}
            x={horizontal ? m.x + m.width + 4 : m.x + m.width / 2}
            y={horizontal ? m.y + m.height / 2 + fs * 0.35 : m.y - 4}
            textAnchor={horizontal ? 'start' : 'middle'}
            fontSize={fs}
            fill={color(el.textColor)}
          >
            {formatChartValue(m.value, el.numberFormat)}
          </text>
        ))}
      {horizontal ? (
        <line x1={plot.x} x2={plot.x} y1={plot.y} y2={plot.y + plot.h} stroke={color(el.gridColor)} />
      ) : (
        <line x1={plot.x} x2={plot.x + plot.w} y1={plot.y + plot.h} y2={plot.y + plot.h} stroke={color(el.gridColor)} />
      )}
      {el.categories.map((c, i) =>
        horizontal ? (
          <text key={i} x={plot.x - 6} y={plot.y + i * band + band / 2 + fs * 0.35} textAnchor="end" fontSize={fs} fill={color(el.textColor)}>
            {c}
          </text>
        ) : (
          <text key={i} x={plot.x + i * band + band / 2} y={plot.y + plot.h + fs * 1.3} textAnchor="middle" fontSize={fs} fill={color(el.textColor)}>
            {c}
          </text>
        ),
      )}
    </g>
  );
}

function Lines({ el, plot }: { el: ChartElement; plot: Plot }) {
  const fs = el.fontSizePt;
  const series = linePoints(el, plot);
  return (
    <g>
      <ValueAxis el={el} plot={plot} />
      {series.map((points, s) => {
        const c = color(pointColor(el, s, 0));
        const line = points.map((pt) => `${pt.x},${pt.y}`).join(' ');
        return (
          <g key={s}>
            {el.type === 'area' && <polygon points={`${plot.x},${plot.y + plot.h} ${line} ${plot.x + plot.w},${plot.y + plot.h}`} fill={c} fillOpacity={AREA_FILL_OPACITY} />}
            {el.type !== 'scatter' && <polyline points={line} fill="none" stroke={c} strokeWidth={2.5} />}
            {points.map((pt, i) => (
              <circle key={i} cx={pt.x} cy={pt.y} r={3.5} fill={c} />
            ))}
            {el.dataLabels &&
              points.map((pt, i) => (
                <text key={`l${i}`} x={pt.x} y={pt.y - 8} textAnchor="middle" fontSize={fs} fill={color(el.textColor)}>
                  {formatChartValue(pt.value, el.numberFormat)}
                </text>
              ))}
          </g>
        );
      })}
      {el.type !== 'scatter' &&
        el.categories.map((c, i) => {
          const n = el.categories.length;
          const x = plot.x + (n === 1 ? plot.w / 2 : (i / (n - 1)) * plot.w);
          return (
            <text key={i} x={x} y={plot.y + plot.h + fs * 1.3} textAnchor="middle" fontSize={fs} fill={color(el.textColor)}>
              {c}
            </text>
          );
        })}
    </g>
  );
}

function Pie({ el, plot }: { el: ChartElement; plot: Plot }) {
  const r = Math.max(10, Math.min(plot.w, plot.h) / 2 - el.fontSizePt * 1.5);
  const cx = plot.x + plot.w / 2;
  const cy = plot.y + plot.h / 2;
  const slices = chartPieSlices(el, cx, cy, r);
  let angle = 0;
  return (
    <g>
      {slices.map((s) => (
        <path key={s.index} d={s.path} fill={color(s.color)} stroke="#FFFFFF" strokeWidth={1} />
      ))}
      {el.dataLabels &&
        slices.map((s) => {
          const mid = angle + s.fraction * Math.PI;
          angle += s.fraction * 2 * Math.PI;
          // Pie labels outside the slice (as the .pptx), doughnut labels on the ring.
          const at = el.type === 'pie' ? r + el.fontSizePt * 1.1 : r * 0.79;
          return (
            <text key={`l${s.index}`} x={cx + at * Math.sin(mid)} y={cy - at * Math.cos(mid) + el.fontSizePt * 0.35} textAnchor="middle" fontSize={el.fontSizePt} fill={color(el.type === 'pie' ? el.textColor : labelColorOn(slices.map((x) => x.color)))}>
              {formatChartValue(s.fraction, '0%')}
            </text>
          );
        })}
    </g>
  );
}

function AxisTitles({ el, plot }: { el: ChartElement; plot: Plot }) {
  const fs = el.fontSizePt;
  const horizontal = el.type === 'bar';
  const valueAxisShown = !(el.dataLabels && (el.type === 'bar' || el.type === 'column'));
  return (
    <g fontSize={fs} fill={color(el.mutedColor)}>
      {el.xTitle &&
        (horizontal ? (
          <text transform={`translate(${fs} ${plot.y + plot.h / 2}) rotate(-90)`} textAnchor="middle">
            {el.xTitle}
          </text>
        ) : (
          <text x={plot.x + plot.w / 2} y={plot.y + plot.h + fs * 3} textAnchor="middle">
            {el.xTitle}
          </text>
        ))}
      {el.yTitle &&
        valueAxisShown &&
        (horizontal ? (
          <text x={plot.x + plot.w / 2} y={plot.y + plot.h + fs * 3} textAnchor="middle">
            {el.yTitle}
          </text>
        ) : (
          <text transform={`translate(${fs} ${plot.y + plot.h / 2}) rotate(-90)`} textAnchor="middle">
            {el.yTitle}
          </text>
        ))}
    </g>
  );
}

function Legend({ el, w, h, plot }: { el: ChartElement; w: number; h: number; plot: Plot }) {
  if (el.legend === 'none') return null;
  const fs = el.fontSizePt;
  // In the reading order the bars are drawn in (chart-order.ts), as the .pptx's legend.
  const items = legendEntries(el).map((e) => ({ name: e.name, c: e.color }));
  if (el.legend === 'right') {
    const x = plot.x + plot.w + fs;
    const y0 = plot.y + plot.h / 2 - (items.length * fs * 1.5) / 2;
    return (
      <g fontSize={fs} fill={color(el.textColor)}>
        {items.map((it, i) => (
          <g key={i}>
            <rect x={x} y={y0 + i * fs * 1.5} width={fs * 0.7} height={fs * 0.7} fill={color(it.c)} />
            <text x={x + fs} y={y0 + i * fs * 1.5 + fs * 0.65}>
              {it.name}
            </text>
          </g>
        ))}
      </g>
    );
  }
  const step = w / (items.length + 1);
  return (
    <g fontSize={fs} fill={color(el.textColor)}>
      {items.map((it, i) => (
        <g key={i}>
          <rect x={step * (i + 1) - fs * 2} y={h - fs * 1.3} width={fs * 0.7} height={fs * 0.7} fill={color(it.c)} />
          <text x={step * (i + 1) - fs} y={h - fs * 0.65}>
            {it.name}
          </text>
        </g>
      ))}
    </g>
  );
}
