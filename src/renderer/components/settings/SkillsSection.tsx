import { useTranslation } from 'react-i18next';
import type { SkillInfo } from '../../../shared/contract';
import { useApp } from '../../state/app-store';
import { localized } from '../../i18n';

/** The skills found, built in or the person's own. */
export function SkillsSection() {
  const { t } = useTranslation();
  const skills = useApp((s) => s.skills);
  return (
    <section className="settings-section" data-testid="skills-section">
      <h2 tabIndex={-1}>{t('settings.skills')}</h2>
      <SkillList skills={skills} />
    </section>
  );
}

/**
 * Each skill by its person-facing title and summary in the UI language. A skill without them (one
 * the person wrote) shows its name and its description, which are the person's own words; a
 * built-in description is for the model and never shown.
 */
export function SkillList({ skills }: { skills: SkillInfo[] }) {
  const { t } = useTranslation();
  return (
    <ul className="skill-list" data-testid="skills-list">
      {skills.map((skill) => (
        <li key={skill.name} className="skill-item">
          <div className="skill-name">
            {skill.title ? localized(skill.title) : skill.name}
            <span className="badge">{t(`skills.source.${skill.source}`)}</span>
          </div>
          <div className="muted">{skill.summary ? localized(skill.summary) : skill.description}</div>
        </li>
      ))}
      {skills.length === 0 && <li className="muted">{t('skills.none')}</li>}
    </ul>
  );
}
