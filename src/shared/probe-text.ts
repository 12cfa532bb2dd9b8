// A probe's findings in the person's language, for the app's probe table and `folio probe`: each
// check by its name and each fact by its sentence (src/shared/locales/probe); what the provider or
// the model said (a reply, the fields Folio sent) is shown as it was.
import type { ProbeCheck, ProbeFact } from './contract/probe';
import type { Say } from './locales/say';
import { probeCheckKey, probeFactKey } from './locales/probe';

export function probeCheckName(check: ProbeCheck, t: Say): string {
  const mode: Record<string, string> = check.startsWith('reasoning:') ? { mode: t(`reasoningModes.${check.slice('reasoning:'.length)}`, {}) } : {};
  return t(`probeReport.check.${probeCheckKey(check)}`, mode);
}

export function probeFactText(fact: ProbeFact, t: Say): string {
  const key = `probeReport.fact.${probeFactKey(fact)}`;
  switch (fact.kind) {
    case 'levels':
      return t(key, { levels: fact.levels.join('/') });
    case 'unsupported':
      return t(key, { mode: t(`reasoningModes.${fact.runs_as}`, {}) });
    case 'sends':
      return t(key, { fields: fact.fields });
    case 'recall':
      return t(key, { tokens: fact.tokens });
    case 'replied':
      return t(key, { text: fact.text });
    case 'error':
      return t(key, { what: t(`errorKind.${fact.code}`, {}) });
    case 'tool_calls':
      return t(key, { count: fact.count });
    case 'accepted':
      return fact.leaked ? t('probeReport.fact.accepted_leaked', { accepted: t(key, {}) }) : t(key, {});
    case 'accepted_value':
      return t(key, { value: fact.value });
    case 'missed':
      return t(key, { reply: fact.reply });
    case 'rejected':
      return t(key, { message: fact.message });
    default:
      return t(key, {});
  }
}
