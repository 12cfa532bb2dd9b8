import { useNotices } from '../state/notices';
import { Icon } from './Icon';
import { ErrorText } from './ErrorText';
import { usePlainT } from '../i18n/plain';

export function Notices() {
  const plainT = usePlainT();
  const notices = useNotices((s) => s.notices);
  const dismiss = useNotices((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className="notice-toast" data-testid="notice">
          <Icon name="alert" size={14} />
          <span>
            <ErrorText error={n} />
          </span>
          <button type="button" className="icon-btn" onClick={() => dismiss(n.id)} aria-label={plainT('common.dismiss')}>
            <Icon name="close" size={12} />
          </button>
        </div>
      ))}
    </div>
  );
}
