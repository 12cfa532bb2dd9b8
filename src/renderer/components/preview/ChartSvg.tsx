// A deck chart drawn simply: enough to recognise the data and its shape, not a chart engine.
import type { ChartSpec } from '../../../shared/specs/deck';
import type { Theme } from '../../../shared/specs/themes';
import { axisTicks, barRects, color, fontFamilyFor, pieSlices, seriesPoints } from '../../lib/deck-preview';
import { ThemedText } from './ThemedText';

const PAD = { left: 56, right: 16, top: 12, bottom: 40 };

function seriesColor(theme: Theme, index: number): string {
  const palette = theme.palette.chart;
  return color(palette[index % palette.length]);
}

function tickText(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export function ChartSvg({ chart, theme, width, height }: { chart: ChartSpec; theme: Theme; width: number; height: number }) {
  const p = theme.palette;
  const font = fontFamilyFor(theme, 'body', false);
  const legendH = 28;
  const titleH = chart.title ? 30 : 0;
  const svgH = height - legendH - titleH;
  const round = chart.type === 'pie' || chart.type === 'doughnut';
  const plotW = width - PAD.left - PAD.right;
  const plotH = svgH - PAD.top - PAD.bottom;
  const legend = round ? chart.categories : chart.series.map((s) => s.name);

  return (
    <div className="slide-chart" style={{ width, height }}>
      {chart.title && (
        <div className="slide-chart-title" style={{ color: color(p.text), height: titleH }}>
          <ThemedText theme={theme} role="body" text={chart.title} />
        </div>
      )}
      <svg width={width} height={svgH} viewBox={`0 0 ${width} ${svgH}`} role="img" aria-label={chart.title ?? chart.type} style={{ fontFamily: font }}>
        {round ? (
          <PieChart chart={chart} theme={theme} width={width} height={svgH} />
        ) : (
          <g transform={`translate(${PAD.left} ${PAD.top})`}>
            {axisTicks(chart).map((tick, i, all) => {
              const y = plotH - (i / (all.length - 1)) * plotH;
              return (
                <g key={i}>
                  <line x1={0} x2={plotW} y1={y} y2={y} stroke={color(p.tableBorder)} strokeWidth={1} />
                  {chart.type !== 'bar' && (
                    <text x={-8} y={y + 5} textAnchor="end" fontSize={13} fill={color(p.muted)}>
                      {tickText(tick)}
                    </text>
                  )}
                </g>
              );
            })}
            {chart.type === 'bar' || chart.type === 'column' ? (
              barRects(chart, plotW, plotH).map((r) => (
                <rect key={`${r.series}-${r.category}`} x={r.x} y={r.y} width={Math.max(r.width, 0.5)} height={Math.max(r.height, 0.5)} fill={seriesColor(theme, r.series)} />
              ))
            ) : (
              <LineChart chart={chart} theme={theme} width={plotW} height={plotH} />
            )}
            {chart.type !== 'scatter' &&
              chart.categories.map((category, i) => {
                const n = chart.categories.length;
                const horizontal = chart.type === 'bar';
                const band = (horizontal ? plotH : plotW) / n;
                const lineLike = chart.type === 'line' || chart.type === 'area';
                const at = lineLike ? (n === 1 ? plotW / 2 : (i / (n - 1)) * plotW) : i * band + band / 2;
                return horizontal ? (
                  <text key={i} x={-8} y={at + 5} textAnchor="end" fontSize={13} fill={color(p.muted)}>
                    {category}
                  </text>
                ) : (
                  <text key={i} x={at} y={plotH + 22} textAnchor="middle" fontSize={13} fill={color(p.muted)}>
                    {category}
                  </text>
                );
              })}
          </g>
        )}
      </svg>
      <div className="slide-chart-legend" style={{ height: legendH, color: color(p.muted) }}>
        {legend.map((name, i) => (
          <span key={i} className="legend-item">
            <span className="legend-swatch" style={{ background: seriesColor(theme, i) }} />
            <ThemedText theme={theme} role="body" text={name} />
          </span>
        ))}
      </div>
    </div>
  );
}

function LineChart({ chart, theme, width, height }: { chart: ChartSpec; theme: Theme; width: number; height: number }) {
  const series = seriesPoints(chart, width, height);
  return (
    <>
      {series.map((points, s) => {
        const c = seriesColor(theme, s);
        const line = points.map((pt) => `${pt.x},${pt.y}`).join(' ');
        if (chart.type === 'scatter') return points.map((pt, i) => <circle key={`${s}-${i}`} cx={pt.x} cy={pt.y} r={5} fill={c} />);
        return (
          <g key={s}>
            {chart.type === 'area' && <polygon points={`0,${height} ${line} ${width},${height}`} fill={c} fillOpacity={0.35} />}
            <polyline points={line} fill="none" stroke={c} strokeWidth={3} />
            {points.map((pt, i) => (
              <circle key={i} cx={pt.x} cy={pt.y} r={4} fill={c} />
            ))}
          </g>
        );
      })}
    </>
  );
}

function PieChart({ chart, theme, width, height }: { chart: ChartSpec; theme: Theme; width: number; height: number }) {
  const r = Math.max(10, Math.min(width, height) / 2 - 12);
  const slices = pieSlices(chart.series[0]?.values ?? [], width / 2, height / 2, r, chart.type === 'doughnut' ? r * 0.55 : 0);
  return (
    <>
      {slices.map((slice) => (
        <path key={slice.index} d={slice.path} fill={seriesColor(theme, slice.index)} stroke={color(theme.palette.background)} strokeWidth={2} />
      ))}
    </>
  );
}
