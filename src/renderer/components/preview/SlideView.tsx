// One deck slide drawn in HTML from its spec, laid out in points on the engine's grid (title band,
// body region, footer zone) with the theme's colours and faces, then scaled to the width asked for.
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulletItem, ColumnContent, DeckSlide, DeckSpec, TableSpec } from '../../../shared/specs/deck';
import type { Theme } from '../../../shared/specs/themes';
import { closingTitle, color, heroMarkColor, inches, slideSizePt } from '../../lib/deck-preview';
import { useTaskImage } from '../../state/task-images';
import { ChartSvg } from './ChartSvg';
import { ThemedText } from './ThemedText';

export interface SlideViewProps {
  taskId: string;
  spec: DeckSpec;
  slide: DeckSlide;
  /** 1-based number shown in the footer (the first .pptx slide this spec slide became). */
  number: number;
  theme: Theme;
  /** Rendered width in CSS pixels. */
  width: number;
}

const MARGIN_X = inches(0.6);
const FOOTER_ZONE = inches(0.7);

function box(x: number, y: number, w: number, h: number): CSSProperties {
  return { left: x, top: y, width: w, height: h };
}

export function SlideView({ taskId, spec, slide, number, theme, width }: SlideViewProps) {
  const size = slideSizePt(spec.aspect);
  const scale = width / size.width;
  const hero = slide.layout === 'title' || slide.layout === 'closing';
  const p = theme.palette;
  return (
    <div className="slide" style={{ width, height: size.height * scale }} lang={spec.language}>
      <div
        className="slide-canvas"
        style={{ width: size.width, height: size.height, transform: `scale(${scale})`, background: color(hero ? p.titleBackground : p.background) }}
      >
        <SlideBody taskId={taskId} spec={spec} slide={slide} theme={theme} size={size} />
        {!hero && slide.layout !== 'section' && <SlideFooter spec={spec} theme={theme} size={size} number={number} />}
      </div>
    </div>
  );
}

type Size = { width: number; height: number };
interface BodyProps {
  taskId: string;
  spec: DeckSpec;
  slide: DeckSlide;
  theme: Theme;
  size: Size;
}

function SlideFooter({ spec, theme, size, number }: { spec: DeckSpec; theme: Theme; size: Size; number: number }) {
  const footer = spec.footer ?? theme.master.footer;
  const y = size.height - inches(0.5);
  const style = { color: color(theme.palette.muted), fontSize: theme.sizes.footer };
  return (
    <>
      {footer && (
        <div className="slide-box slide-footer" style={{ ...box(MARGIN_X, y, size.width * 0.6, inches(0.3)), ...style }}>
          <ThemedText theme={theme} role="body" text={footer} />
        </div>
      )}
      {theme.master.slideNumber && (
        <div className="slide-box slide-number" style={{ ...box(size.width - MARGIN_X - inches(1.2), y, inches(1.2), inches(0.3)), ...style }}>
          {number}
        </div>
      )}
    </>
  );
}

function SlideBody({ taskId, spec, slide, theme, size }: BodyProps) {
  const p = theme.palette;
  switch (slide.layout) {
    case 'title': {
      const byline = [spec.author, spec.date].filter(Boolean).join(' · ');
      const x = inches(1.0);
      const w = size.width - x - inches(0.9);
      return (
        <>
          <div className="slide-shape" style={{ ...box(inches(0.6), inches(1.9), inches(0.12), inches(2.9)), background: color(heroMarkColor(theme)) }} />
          <div className="slide-shape" style={{ ...box(0, size.height - inches(0.14), size.width, inches(0.14)), background: color(heroMarkColor(theme)) }} />
          <Text box={box(x, inches(1.75), w, inches(2.0))} theme={theme} role="heading" size={theme.sizes.heroTitle} color={p.titleText} valign="end" bold testId="slide-title">
            {slide.title ?? spec.title}
          </Text>
          {(slide.subtitle ?? spec.subtitle) && (
            <Text box={box(x, inches(3.9), w, inches(1.0))} theme={theme} role="body" size={theme.sizes.body} color={p.titleMuted}>
              {slide.subtitle ?? spec.subtitle ?? ''}
            </Text>
          )}
          {byline && (
            <Text box={box(x, size.height - inches(1.35), w, inches(0.6))} theme={theme} role="body" size={theme.sizes.caption + 2} color={p.titleMuted}>
              {byline}
            </Text>
          )}
        </>
      );
    }
    case 'section': {
      const x = inches(1.0);
      const w = size.width - x - MARGIN_X;
      return (
        <>
          <div className="slide-shape" style={{ ...box(0, 0, inches(0.4), size.height), background: color(p.accent) }} />
          <div className="slide-shape" style={{ ...box(inches(1.0), inches(3.95), inches(1.6), inches(0.07)), background: color(p.accent2) }} />
          <Text box={box(x, inches(2.2), w, inches(1.6))} theme={theme} role="heading" size={theme.sizes.title + 8} color={p.text} valign="end" bold testId="slide-title">
            {slide.title}
          </Text>
          {slide.subtitle && (
            <Text box={box(x, inches(4.2), w, inches(1.2))} theme={theme} role="body" size={theme.sizes.body} color={p.muted}>
              {slide.subtitle}
            </Text>
          )}
        </>
      );
    }
    case 'closing': {
      const w = size.width - inches(2);
      return (
        <>
          <Text box={box(inches(1), inches(2.2), w, inches(1.6))} theme={theme} role="heading" size={theme.sizes.heroTitle} color={p.titleText} valign="end" align="center" bold testId="slide-title">
            {closingTitle(spec, slide.title)}
          </Text>
          <div className="slide-shape" style={{ ...box(size.width / 2 - inches(0.8), inches(4.0), inches(1.6), inches(0.07)), background: color(heroMarkColor(theme)) }} />
          {slide.subtitle && (
            <Text box={box(inches(1), inches(4.3), w, inches(1.2))} theme={theme} role="body" size={theme.sizes.body} color={p.titleMuted} align="center">
              {slide.subtitle}
            </Text>
          )}
        </>
      );
    }
    default:
      return (
        <>
          {slide.title !== undefined && <TitleBand title={slide.title} theme={theme} size={size} />}
          <ContentBody taskId={taskId} slide={slide} theme={theme} size={size} />
        </>
      );
  }
}

function TitleBand({ title, theme, size }: { title: string; theme: Theme; size: Size }) {
  const p = theme.palette;
  const mark = theme.master.titleMark;
  const x = MARGIN_X + (mark === 'bar' ? inches(0.3) : 0);
  const w = size.width - x - MARGIN_X;
  return (
    <>
      {mark === 'bar' && <div className="slide-shape" style={{ ...box(MARGIN_X, inches(0.5), inches(0.1), inches(0.75)), background: color(p.accent) }} />}
      {mark === 'underline' && <div className="slide-shape" style={{ ...box(MARGIN_X, inches(1.38), inches(1.2), inches(0.05)), background: color(p.accent) }} />}
      <Text box={box(x, inches(0.35), w, inches(1.05))} theme={theme} role="heading" size={theme.sizes.title} color={p.text} bold testId="slide-title">
        {title}
      </Text>
    </>
  );
}

function bodyBox(size: Size): { x: number; y: number; w: number; h: number } {
  const y = inches(1.65);
  return { x: MARGIN_X, y, w: size.width - 2 * MARGIN_X, h: size.height - y - FOOTER_ZONE };
}

function ContentBody({ taskId, slide, theme, size }: { taskId: string; slide: DeckSlide; theme: Theme; size: Size }) {
  const p = theme.palette;
  const body = bodyBox(size);
  const region = box(body.x, body.y, body.w, body.h);
  switch (slide.layout) {
    case 'bullets':
      return (
        <div className="slide-box" style={region}>
          <Bullets items={slide.bullets} theme={theme} />
        </div>
      );
    case 'two_column': {
      const gap = inches(0.4);
      const colW = (body.w - gap) / 2;
      return (
        <>
          <div className="slide-box" style={box(body.x, body.y, colW, body.h)}>
            <Column content={slide.left} taskId={taskId} theme={theme} />
          </div>
          <div className="slide-box" style={box(body.x + colW + gap, body.y, colW, body.h)}>
            <Column content={slide.right} taskId={taskId} theme={theme} />
          </div>
        </>
      );
    }
    case 'image':
      return (
        <div className="slide-box" style={region}>
          <SlideImage taskId={taskId} path={slide.image} caption={slide.caption} theme={theme} />
        </div>
      );
    case 'chart':
      return (
        <div className="slide-box" style={region}>
          <ChartSvg chart={slide.chart} theme={theme} width={body.w} height={body.h} />
        </div>
      );
    case 'table':
      return (
        <div className="slide-box" style={region}>
          <SlideTable table={slide.table} theme={theme} />
        </div>
      );
    case 'quote': {
      const top = slide.title !== undefined ? body.y : inches(1.2);
      const bottom = size.height - FOOTER_ZONE - inches(0.3);
      return (
        <>
          <div className="slide-shape" style={{ ...box(inches(1.2), top, inches(0.08), bottom - top), background: color(p.accent) }} />
          <div className="slide-box slide-quote" style={{ ...box(inches(1.6), top, size.width - inches(2.8), bottom - top), color: color(p.text), fontSize: theme.sizes.body + 4 }}>
            <div>
              <ThemedText theme={theme} role="body" text={slide.quote} />
            </div>
            {slide.by && (
              <div className="slide-quote-by" style={{ color: color(p.muted), fontSize: theme.sizes.body - 4 }}>
                <ThemedText theme={theme} role="body" text={`— ${slide.by}`} />
              </div>
            )}
          </div>
        </>
      );
    }
    default:
      return null;
  }
}

interface TextProps {
  box: CSSProperties;
  theme: Theme;
  role: 'heading' | 'body';
  size: number;
  color: string;
  children: string;
  valign?: 'start' | 'center' | 'end';
  align?: 'left' | 'center';
  bold?: boolean;
  testId?: string;
}

function Text({ box: position, theme, role, size, color: hex, children, valign = 'center', align = 'left', bold, testId }: TextProps) {
  return (
    <div
      className="slide-box slide-text"
      style={{
        ...position,
        fontSize: size,
        lineHeight: theme.lineHeight,
        color: color(hex),
        justifyContent: valign === 'start' ? 'flex-start' : valign === 'end' ? 'flex-end' : 'center',
        textAlign: align,
        fontWeight: bold ? 700 : 400,
      }}
      data-testid={testId}
    >
      <div>
        <ThemedText theme={theme} role={role} text={children} />
      </div>
    </div>
  );
}

/** The engine shrinks long lists to fit; the preview scales the type down the same way, roughly. */
function bulletFontSize(items: readonly BulletItem[], base: number): number {
  const lines = items.reduce((n, item) => n + (typeof item === 'string' ? 1 : 1 + item.sub.length), 0);
  const words = items.reduce((n, item) => n + (typeof item === 'string' ? item.length : item.text.length + item.sub.join('').length), 0);
  const crowding = Math.max(lines / 7, words / 420);
  return crowding > 1 ? Math.max(base * 0.6, base / crowding) : base;
}

function Bullets({ items, theme }: { items: readonly BulletItem[]; theme: Theme }) {
  const p = theme.palette;
  const size = bulletFontSize(items, theme.sizes.body);
  return (
    <ul className="slide-bullets" style={{ fontSize: size, lineHeight: theme.lineHeight, color: color(p.text) }}>
      {items.map((item, i) => (
        <li key={i} style={{ ['--bullet' as string]: color(p.accent) }}>
          <ThemedText theme={theme} role="body" text={typeof item === 'string' ? item : item.text} />
          {typeof item !== 'string' && item.sub.length > 0 && (
            <ul className="slide-bullets sub" style={{ fontSize: size * 0.85, color: color(p.muted) }}>
              {item.sub.map((sub, j) => (
                <li key={j}>
                  <ThemedText theme={theme} role="body" text={sub} />
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

function Column({ content, taskId, theme }: { content: ColumnContent; taskId: string; theme: Theme }) {
  if (content.bullets) return <Bullets items={content.bullets} theme={theme} />;
  if (content.image) return <SlideImage taskId={taskId} path={content.image} caption={content.caption} theme={theme} />;
  return (
    <div className="slide-column-text" style={{ fontSize: theme.sizes.body - 2, lineHeight: theme.lineHeight, color: color(theme.palette.text) }}>
      <ThemedText theme={theme} role="body" text={content.text ?? ''} />
    </div>
  );
}

function SlideImage({ taskId, path, caption, theme }: { taskId: string; path: string; caption?: string; theme: Theme }) {
  const { t } = useTranslation();
  const url = useTaskImage(taskId, path);
  const p = theme.palette;
  let picture: ReactNode;
  if (url) picture = <img className="slide-image" src={url} alt={caption ?? path} />;
  else
    picture = (
      <div className="slide-image-placeholder" style={{ background: color(p.surface), color: color(p.muted) }} data-testid="slide-image-placeholder">
        {url === undefined ? t('common.loading') : t('preview.imageMissing', { path })}
      </div>
    );
  return (
    <div className="slide-figure">
      {picture}
      {caption && (
        <div className="slide-caption" style={{ color: color(p.muted), fontSize: theme.sizes.caption }}>
          <ThemedText theme={theme} role="body" text={caption} />
        </div>
      )}
    </div>
  );
}

function SlideTable({ table, theme }: { table: TableSpec; theme: Theme }) {
  const p = theme.palette;
  const border = `1px solid ${color(p.tableBorder)}`;
  return (
    <table className="slide-table" style={{ fontSize: theme.sizes.table, color: color(p.text) }}>
      <thead>
        <tr>
          {table.header.map((cell, i) => (
            <th key={i} style={{ background: color(p.tableHeader), color: color(p.tableHeaderText), border }}>
              <ThemedText theme={theme} role="body" text={cell} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, r) => (
          <tr key={r} style={{ background: r % 2 === 1 ? color(p.tableZebra) : undefined }}>
            {row.map((cell, c) => (
              <td key={c} style={{ border }}>
                <ThemedText theme={theme} role="body" text={cell} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
