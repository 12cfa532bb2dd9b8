// What a layout planner works with: the deck-wide facts (theme, measurer, slide size, language),
// the spec slide's report, and slide builders that collect positioned elements and notes.
import { type DeckLayout, type DeckSlide, type DeckSpec } from '../../../../shared/specs/deck';
import { type PlanElement, type PlannedSlide } from '../../../../shared/specs/deck-plan';
import { type SlideSize } from '../../../../shared/specs/deck-geometry';
import { type Theme } from '../../../../shared/specs/themes';
import { type SlideReport } from '../report';
import { type TextMeasurer } from '../../typesetting/text-measurer';

export interface PlanOptions {
  theme: Theme;
  measurer: TextMeasurer;
  size: SlideSize;
  /** The deck's language (given or detected): continuation titles, default closing words. */
  language: string;
  /** The task folder: image paths are relative to it. */
  baseDir: string;
}

export interface PlanContext extends PlanOptions {
  spec: DeckSpec;
  /** 0-based index of the spec slide being planned. */
  index: number;
  /** Where every compromise for this spec slide is written. */
  report: SlideReport;
}

/** Collects one output slide: elements in drawing (and reading) order, and speaker notes. */
export class SlideBuilder {
  readonly elements: PlanElement[] = [];
  private readonly notes: string[] = [];

  constructor(
    readonly master: PlannedSlide['master'],
    readonly background: string,
    /** 0 for the first output slide of a spec slide, 1.. for continuations. */
    readonly part = 0,
  ) {}

  /** Adds an element; an id already used on this slide gets a numeric suffix. */
  add<E extends PlanElement>(element: E): E {
    let id = element.id;
    for (let n = 2; this.elements.some((e) => e.id === id); n++) id = `${element.id}-${n}`;
    const added = { ...element, id };
    this.elements.push(added);
    return added;
  }

  /** Text moved off the slide (or a note a planner wants the speaker to have). */
  addNote(text: string): void {
    if (text.trim()) this.notes.push(text.trim());
  }

  /** Moves everything `other` collected onto this slide, shifted down by `dy` inches (compose, then place). */
  take(other: SlideBuilder, dy = 0): void {
    for (const el of other.elements) this.add({ ...el, box: { ...el.box, y: el.box.y + dy } });
    for (const note of other.notes) this.addNote(note);
  }

  build(sourceIndex: number, specNotes?: string): PlannedSlide {
    const notes = [specNotes ?? '', ...this.notes].filter((n) => n.trim() !== '').join('\n\n');
    return {
      source_index: sourceIndex,
      part: this.part,
      master: this.master,
      background: this.background,
      elements: this.elements,
      ...(notes ? { notes } : {}),
    };
  }
}

export type SlideOf<L extends DeckLayout> = Extract<DeckSlide, { layout: L }>;

/** Plans one spec slide of layout L into one or more output slides (continuations after the first). */
export type Planner<L extends DeckLayout> = (ctx: PlanContext, slide: SlideOf<L>) => SlideBuilder[];

/** One planner per layout: a layout without a planner is a compile error. */
export type PlannerRegistry = { [L in DeckLayout]: Planner<L> };
