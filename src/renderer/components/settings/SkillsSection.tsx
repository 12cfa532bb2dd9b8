import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/app-store';

/** The skills found, built in or the person's own. */
export function SkillsSection() {
  const { t } = useTranslation();
  const skills = useApp((s) => s.skills);
  return (
    <section className="settings-section" data-testid="skills-section">
      <h2 tabIndex={-1}>{t('settings.skills')}</h2>
      <ul className="skill-list" data-testid="skills-list">
        {skills.map((skill) => (
          <li key={skill.name} className="skill-item">
            <div className="skill-name">
              {skill.name}
              <span className="badge">{t(`skills.source.${skill.source}`)}</span>
            </div>
            <div className="muted">{skill.description}</div>
          </li>
        ))}
        {skills.length === 0 && <li className="muted">{t('skills.none')}</li>}
      </ul>
    </section>
  );
}
