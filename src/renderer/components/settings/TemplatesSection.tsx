// Settings → Templates: import a .pptx/.potx, see what was read from it (colours, fonts, layouts,
// what could not be mapped), preview sample slides planned on it before using it, delete it.
// The preview draws the plan the main process made with the same SlideView as deck previews, over
// what the template's layout paints (background, bands, pictures, the logo where that layout shows it).
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodOutput } from '../../../shared/contract';
import type { TemplateSummary, UnreadableTemplate } from '../../../shared/specs/templates';
import { currentLanguage } from '../../i18n';
import { getApi } from '../../state/api';
import { toErrorInfo, type ErrorInfo } from '../../state/notices';
import { ConfirmDialog } from '../ConfirmDialog';
import { FilePickerButton } from '../FilePickerButton';
import { Icon } from '../Icon';
import { SlideView } from '../preview/SlideView';
import { ErrorText, ServerDetail } from '../ErrorText';
import { templateWarningText } from '../../../shared/template-warning-text';
import { plainT } from '../../i18n/plain';

type Preview = MethodOutput<'getTemplatePreview'>;

function ErrorLine({ error }: { error: ErrorInfo }) {
  return (
    <div className="inline-error" role="alert" data-testid="templates-error">
      <ErrorText error={error} />
    </div>
  );
}

/** Template folders whose record could not be read, named so the person can remove them; the reader's English inline only on an English screen. */
export function UnreadableTemplates({ items }: { items: readonly UnreadableTemplate[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <ul className="warning-list" aria-label={plainT('templates.unreadable')} data-testid="templates-unreadable">
      {items.map((item) => (
        <li key={item.folder} className="warning-item">
          <Icon name="alert" size={14} />
          <span>
            {t('templates.unreadableRecord', { folder: item.folder })} <ServerDetail text={item.detail} />
          </span>
        </li>
      ))}
    </ul>
  );
}

export function TemplatesSection() {
  const { t } = useTranslation();
  const [templates, setTemplates] = useState<TemplateSummary[]>([]);
  const [unreadable, setUnreadable] = useState<UnreadableTemplate[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [imported, setImported] = useState<TemplateSummary | null>(null);
  const [doomed, setDoomed] = useState<TemplateSummary | null>(null);

  const load = useCallback(async () => {
    try {
      const list = await getApi().client.listTemplates({});
      setTemplates(list.templates);
      setUnreadable(list.errors);
    } catch (err) {
      setError(toErrorInfo(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const importFile = async (file: File) => {
    setBusy(true);
    setError(null);
    setImported(null);
    try {
      setImported(await getApi().importTemplate(file));
      await load();
    } catch (err) {
      setError(toErrorInfo(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (template: TemplateSummary) => {
    setDoomed(null);
    try {
      await getApi().client.deleteTemplate({ template_id: template.id });
      if (imported?.id === template.id) setImported(null);
      await load();
    } catch (err) {
      setError(toErrorInfo(err));
    }
  };

  return (
    <section className="settings-section" data-testid="templates-section">
      <h2 tabIndex={-1}>{t('templates.title')}</h2>
      <p className="muted">{t('templates.intro', { example: templates[0]?.id ?? 'acme' })}</p>
      <div className="templates-actions">
        <FilePickerButton
          className="btn"
          accept=".pptx,.potx,application/vnd.openxmlformats-officedocument.presentationml.presentation,application/vnd.openxmlformats-officedocument.presentationml.template"
          multiple={false}
          onPick={([file]) => {
            if (file) void importFile(file);
          }}
          disabled={busy}
          testId="template-import"
          inputTestId="template-file-input"
        >
          {busy && <span className="spinner" />}
          {busy ? t('templates.importing') : t('templates.import')}
        </FilePickerButton>
        {imported && (
          <span className="saved-hint" data-testid="template-imported">
            {t('templates.imported', { name: imported.name, id: imported.id })}
          </span>
        )}
      </div>
      {error && <ErrorLine error={error} />}
      <UnreadableTemplates items={unreadable} />
      <ul className="template-list" data-testid="templates-list">
        {templates.map((tpl) => (
          <TemplateItem key={tpl.id} template={tpl} onDelete={() => setDoomed(tpl)} />
        ))}
        {templates.length === 0 && <li className="muted">{t('templates.none')}</li>}
      </ul>
      {doomed && (
        <ConfirmDialog
          title={t('templates.confirmDeleteTitle', { name: doomed.name })}
          body={t('templates.confirmDeleteBody', { id: doomed.id, file: doomed.file_name })}
          confirmLabel={t('templates.delete')}
          danger
          onConfirm={() => void remove(doomed)}
          onCancel={() => setDoomed(null)}
        />
      )}
    </section>
  );
}

function Swatches({ colours }: { colours: string[] }) {
  return (
    <span className="template-swatches" aria-hidden="true">
      {colours.map((c, i) => (
        <span key={`${c}-${i}`} className="template-swatch" style={{ background: `#${c}` }} title={`#${c}`} />
      ))}
    </span>
  );
}

export function TemplateItem({ template, onDelete }: { template: TemplateSummary; onDelete: () => void }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const p = template.palette;
  return (
    <li className="template-item" data-testid="template-item" data-template={template.id}>
      <div className="template-head">
        <div className="template-name">
          <span className="cell-strong">{template.name}</span>
          <span className="badge">{template.aspect}</span>
          <Swatches colours={[p.background, p.text, ...p.chart]} />
        </div>
        <div className="template-buttons">
          <button type="button" className="btn btn-small" onClick={() => setOpen((v) => !v)} aria-expanded={open} data-testid="template-preview-toggle">
            {open ? t('templates.hidePreview') : t('templates.preview')}
          </button>
          <button type="button" className="btn btn-small btn-ghost-danger" onClick={onDelete} data-testid="template-delete">
            {t('templates.delete')}
          </button>
        </div>
      </div>
      <div className="muted template-facts">
        <span>
          {t('templates.useAs')} <code>&quot;theme&quot;: &quot;{template.id}&quot;</code>
        </span>
        <span>{t('templates.fonts', { heading: template.heading_font, body: template.body_font })}</span>
        <span>{t('templates.layouts', { count: template.layouts.length })}</span>
        <span className="cell-mono">{template.file_name}</span>
      </div>
      {template.warnings.length > 0 && (
        <details className="template-warnings" data-testid="template-warnings">
          <summary>
            {t('templates.warnings')} ({template.warnings.length})
          </summary>
          <ul className="warning-list">
            {template.warnings.map((w, i) => (
              <li key={i} className="warning-item">
                <Icon name="alert" size={14} />
                <span>{templateWarningText(w, t)}</span>
                {w.kind === 'legacy' && !i18n.language.startsWith('en') && <ServerDetail text={w.text} />}
              </li>
            ))}
          </ul>
        </details>
      )}
      {open && <TemplatePreview id={template.id} />}
    </li>
  );
}

/** What the template's layout paints behind a sample (its background, bands, pictures), under Folio's elements. */
function Backdrops({ layers }: { layers: Preview['backdrops'][number] }) {
  return (
    <>
      {layers.map((l, i) => {
        const style = { left: `${l.x * 100}%`, top: `${l.y * 100}%`, width: `${l.w * 100}%`, height: `${l.h * 100}%` };
        return l.image ? (
          <img key={i} className="template-backdrop" src={l.image} alt="" style={style} data-testid="template-backdrop" />
        ) : (
          <div key={i} className="template-backdrop" style={{ ...style, background: `#${l.color ?? 'FFFFFF'}` }} data-testid="template-backdrop" />
        );
      })}
    </>
  );
}

function TemplatePreview({ id }: { id: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  useEffect(() => {
    let live = true;
    getApi()
      .client.getTemplatePreview({ template_id: id, language })
      .then((p) => live && setPreview(p))
      .catch((err: unknown) => live && setError(toErrorInfo(err)));
    return () => {
      live = false;
    };
  }, [id, language]);

  if (error) return <ErrorLine error={error} />;
  if (!preview) return <div className="muted">{t('templates.loadingPreview')}</div>;
  const width = 240;
  const { plan } = preview;
  return (
    <div className="template-preview" data-testid="template-preview">
      {plan.slides.map((slide, i) => (
        <figure key={i} className="template-sample" data-testid="template-sample">
          <div className="template-sample-slide">
            <SlideView taskId="" plan={plan} slide={slide} theme={preview.theme} width={width} underlay={<Backdrops layers={preview.backdrops[i] ?? []} />} />
          </div>
          <figcaption className="muted">{t('templates.onLayout', { layout: preview.layouts[i] ?? '' })}</figcaption>
        </figure>
      ))}
    </div>
  );
}
