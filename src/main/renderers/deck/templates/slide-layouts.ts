// Which of a template's layouts a planned slide is drawn on, from the spec layout it came from.
import { type DeckLayout } from '../../../../shared/specs/deck';
import { type PlannedSlide } from '../../../../shared/specs/deck-plan';
import { type TemplateLayoutMap } from '../../../../shared/specs/templates';

export function templateLayoutFor(map: TemplateLayoutMap, layout: DeckLayout | undefined, master: PlannedSlide['master']): string {
  switch (layout) {
    case 'title':
    case 'closing':
      return map.title;
    case 'section':
      return map.section;
    case 'two_column':
      return map.two_content;
    case 'full_image':
      return map.blank;
    default:
      return master === 'plain' ? map.blank : map.content;
  }
}
