// One output slide drawn in HTML from its plan: the same positioned elements the .pptx drawer drew,
// in points on a canvas of the slide's size, then scaled to the width asked for. Nothing is laid out
// here; a kind of element this does not draw is a compile error.
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { assertNever, type DeckPlan, type ImageElement, type PlanElement, type PlannedSlide, type PlanParagraph, type ShapeElement, type TextElement } from '../../../shared/specs/deck-plan';
import { lineStartTrim, startsWithOpeningBracket } from '../../../shared/specs/deck-text';
import { bulletIndentPt } from '../../../shared/specs/deck-geometry';
import type { Theme } from '../../../shared/specs/themes';
import { color, inches } from '../../lib/deck-preview';
import { useTaskImage } from '../../state/task-images';
import { ChartElementView } from './plan/ChartElementView';
import { IconElementView } from './plan/IconElementView';
import { TableElementView } from './plan/TableElementView';
import { ThemedText } from './ThemedText';

export interface SlideViewProps {
  taskId: string;
  plan: DeckPlan;
  slide: PlannedSlide;
  theme: Theme;
  /** Rendered width in CSS pixels. */
  width: number;
  lang?: string;
  /** Drawn over the slide's background and under its elements (a template's own paint in its preview). */
  underlay?: ReactNode;
}

const pt = inches;

function boxStyle(b: { x: number; y: number; w: number; h: number }): CSSProperties {
  return { left: pt(b.x), top: pt(b.y), width: pt(b.w), height: pt(b.h) };
}

export function SlideView({ taskId, plan, slide, theme, width, lang, underlay }: SlideViewProps) {
  const w = pt(plan.size.w);
  const h = pt(plan.size.h);
  const scale = width / w;
  return (
    <div className="slide" style={{ width, height: h * scale }} lang={lang}>
      <div className="slide-canvas" style={{ width: w, height: h, transform: `scale(${scale})`, background: color(slide.background) }}>
        {underlay}
        {slide.elements.map((el) => (
          <ElementView key={el.id} element={el} theme={theme} taskId={taskId} />
        ))}
      </div>
    </div>
  );
}

function ElementView({ element, theme, taskId }: { element: PlanElement; theme: Theme; taskId: string }) {
  switch (element.kind) {
    case 'text':
      return <TextView element={element} theme={theme} />;
    case 'shape':
      return <ShapeView element={element} />;
    case 'image':
      return <ImageView element={element} theme={theme} taskId={taskId} />;
    case 'icon':
      return <IconElementView element={element} theme={theme} taskId={taskId} />;
    case 'chart':
      return <ChartElementView element={element} theme={theme} taskId={taskId} />;
    case 'table':
      return <TableElementView element={element} theme={theme} taskId={taskId} />;
    default:
      return assertNever(element, 'plan element');
  }
}

const JUSTIFY: Record<TextElement['valign'], CSSProperties['justifyContent']> = { top: 'flex-start', middle: 'center', bottom: 'flex-end' };

function TextView({ element: el, theme }: { element: TextElement; theme: Theme }) {
  return (
    <div
      className="slide-box slide-text"
      style={{ ...boxStyle(el.box), justifyContent: JUSTIFY[el.valign], textAlign: el.align }}
      data-testid={el.role === 'title' ? 'slide-title' : undefined}
      data-id={el.id}
    >
      {el.paragraphs.map((p, i) => {
        const indent = p.bullet === 'none' ? 0 : bulletIndentPt(p.sizePt);
        // A template's bullets set where the text starts and the bullet character.
        const margin = p.bullet === 'none' ? 0 : (p.marginPt ?? indent * (p.level + 1));
        const own = p.marginPt !== undefined ? theme.template?.bullets?.[p.level]?.char : undefined;
        return (
          <div
            key={i}
            className="slide-paragraph"
            style={{
              fontSize: p.sizePt,
              lineHeight: `${p.sizePt * el.lineHeight}px`,
              color: color(p.color),
              fontWeight: p.bold ? 700 : 400,
              paddingLeft: margin,
              marginBottom: i < el.paragraphs.length - 1 ? p.spaceAfterPt : 0,
              // Code keeps its lines as the file does: fitted, never wrapped.
              ...(el.font === 'code' ? { whiteSpace: 'pre' as const } : {}),
            }}
          >
            {p.bullet !== 'none' && (
              <span className="slide-bullet" style={{ left: Math.max(0, margin - indent), width: indent }} aria-hidden="true">
                {p.bullet === 'number' ? `${i + 1}.` : (own ?? (p.level === 0 ? '•' : '–'))}
              </span>
            )}
            <ParagraphText theme={theme} role={el.font} paragraph={p} trim={lineStartTrim(el.align, p)} />
          </div>
        );
      })}
    </div>
  );
}

/** A paragraph's text, broken where the file breaks it when the plan says where (`lines`), else wrapped here. */
function ParagraphText({ theme, role, paragraph: p, trim }: { theme: Theme; role: TextElement['font']; paragraph: PlanParagraph; trim: { first: boolean; rest: boolean } }) {
  if (!p.lines) return <LineText theme={theme} role={role} text={p.text} trim={trim.first} />;
  return (
    <>
      {p.lines.map((line, i) => (
        <span key={i} className="slide-line">
          {i > 0 && <br />}
          <LineText theme={theme} role={role} text={line} trim={i === 0 ? trim.first : trim.rest} />
        </span>
      ))}
    </>
  );
}

/** A line's text; an opening bracket at its start drawn half an em sooner, its blank half out past the line's start. */
function LineText({ theme, role, text, trim }: { theme: Theme; role: TextElement['font']; text: string; trim: boolean }) {
  if (!trim || !startsWithOpeningBracket(text)) return <ThemedText theme={theme} role={role} text={text} />;
  const [bracket = '', ...rest] = Array.from(text);
  return (
    <>
      <span className="slide-line-start-bracket">
        <ThemedText theme={theme} role={role} text={bracket} />
      </span>
      <ThemedText theme={theme} role={role} text={rest.join('')} />
    </>
  );
}

const CLIP: Partial<Record<ShapeElement['shape'], string>> = {
  rightArrow: 'polygon(0 30%, 70% 30%, 70% 0, 100% 50%, 70% 100%, 70% 70%, 0 70%)',
  chevron: 'polygon(0 0, 75% 0, 100% 50%, 75% 100%, 0 100%, 25% 50%)',
};

function ShapeView({ element: el }: { element: ShapeElement }) {
  const style: CSSProperties = { ...boxStyle(el.box), background: el.fill ? color(el.fill) : undefined };
  if (el.line) style.border = `${el.line.widthPt}px solid ${color(el.line.color)}`;
  if (el.shape === 'ellipse') style.borderRadius = '50%';
  if (el.shape === 'roundRect') style.borderRadius = pt(el.radius ?? 0.1);
  if (el.shape === 'line') {
    style.background = undefined;
    style.border = undefined;
    style.borderTop = `${el.line?.widthPt ?? 1}px solid ${color(el.line?.color ?? el.fill ?? '000000')}`;
  }
  const clip = CLIP[el.shape];
  if (clip) style.clipPath = clip;
  return <div className="slide-shape" style={style} data-id={el.id} />;
}

function ImageView({ element: el, theme, taskId }: { element: ImageElement; theme: Theme; taskId: string }) {
  const { t } = useTranslation();
  const url = useTaskImage(taskId, el.path);
  if (url) return <img className="slide-box slide-image" style={{ ...boxStyle(el.box), objectFit: el.fit }} src={url} alt={el.path} />;
  return (
    <div className="slide-box slide-image-placeholder" style={{ ...boxStyle(el.box), background: color(theme.palette.surface), color: color(theme.palette.muted) }} data-testid="slide-image-placeholder">
      {url === undefined ? t('common.loading') : t('preview.imageMissing', { path: el.path })}
    </div>
  );
}
