import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isMac, SHORTCUTS, shortcutLabel } from '../lib/shortcuts';
import { useLayout } from '../state/layout-store';

/** The list of global shortcuts (Ctrl+/ or the keyboard button in the sidebar). */
export function ShortcutsHelp() {
  const { t } = useTranslation();
  const close = () => useLayout.getState().setShortcutsOpen(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  const mac = isMac(typeof navigator === 'undefined' ? undefined : navigator.platform);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') useLayout.getState().setShortcutsOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      before?.focus();
    };
  }, []);

  return (
    <div className="modal-backdrop" onMouseDown={close}>
      <div className="modal shortcuts-modal" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" data-testid="shortcuts-help" onMouseDown={(e) => e.stopPropagation()}>
        <h2 id="shortcuts-title" className="modal-title">
          {t('layout.shortcuts.title')}
        </h2>
        <table className="shortcuts-table">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action}>
                <td>{t(`layout.shortcuts.${s.action}`)}</td>
                <td>
                  <kbd>{shortcutLabel(s, mac)}</kbd>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="modal-actions">
          <button ref={closeRef} type="button" className="btn" onClick={close} data-testid="shortcuts-close">
            {t('common.close')}
          </button>
        </div>
      </div>
    </div>
  );
}
