import { Fragment, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelProfileInfo } from '../../../shared/contract';
import type { SetupStatus } from '../../../shared/contract/setup';
import { formatTokens, formatUnitPrice } from '../../lib/format';
import { modelLabels, providerName } from '../../../shared/model-names';
import { getApi } from '../../state/api';
import { localServerState, needsNoKey } from '../../lib/provider-state';
import { useApp } from '../../state/app-store';
import { useSetup } from '../../state/setup-store';
import { toErrorInfo } from '../../state/notices';
import { ApiKeyForm } from './ApiKeyForm';
import { ProbeResult, type ProbeState } from './ProbeResult';
import { plainT } from '../../i18n/plain';

/** Where a profile's key comes from, in words: the variable's name is shown as code, under a label. */
export function KeySource({ env }: { env: string | null | undefined }) {
  const { t } = useTranslation();
  if (!env) return <span className="muted">{t('models.noEnv')}</span>;
  return (
    <span className="key-source" title={plainT('models.keyFromEnvHint', { name: env })} data-testid="key-source">
      <span className="muted">{t('models.keyFromEnv')}</span>
      <code>{env}</code>
    </span>
  );
}

/** A profile's price per million tokens with its currency; 0 and 0 is no price, not a free model. */
export function ProfilePrice({ price }: { price: { input: number; output: number; currency?: string } }) {
  const { t, i18n } = useTranslation();
  if (price.input === 0 && price.output === 0) return <span className="muted">{t('usage.noPrice')}</span>;
  const money = (amount: number) => formatUnitPrice(amount, price.currency, i18n.language);
  return <>{t('models.priceValue', { input: money(price.input), output: money(price.output) })}</>;
}

/** Whether a profile's key is there, as a mark with its meaning for a screen reader. */
function KeyMark({ present }: { present: boolean }) {
  return (
    <span className={present ? 'key-yes' : 'key-no'} aria-label={present ? plainT('models.keyPresent') : plainT('models.keyMissing')}>
      {present ? '✓' : '✗'}
    </span>
  );
}

/**
 * A profile's key cells: where its key comes from and whether it is there. A local server needs
 * none, and says so across both cells rather than showing a key as present.
 */
export function ProfileKeyCells({ profile, className }: { profile: Pick<ModelProfileInfo, 'api_key_env' | 'has_key'>; className?: string }) {
  const { t } = useTranslation();
  if (needsNoKey(profile)) {
    return (
      <td colSpan={2} className={['muted', className].filter(Boolean).join(' ')} data-testid="profile-no-key">
        {t('models.noKeyNeeded')}
      </td>
    );
  }
  return (
    <>
      <td className={className}>
        <KeySource env={profile.api_key_env} />
      </td>
      <td className={className}>
        <KeyMark present={profile.has_key} />
      </td>
    </>
  );
}

/** The key cells' facts as lines under the model, where a narrow table has no columns for them. */
function ProfileKeyLines({ profile }: { profile: Pick<ModelProfileInfo, 'api_key_env' | 'has_key'> }) {
  const { t } = useTranslation();
  if (needsNoKey(profile)) return <div className="muted">{t('models.noKeyNeeded')}</div>;
  return (
    <div className="key-line">
      <KeySource env={profile.api_key_env} />
      <KeyMark present={profile.has_key} />
    </div>
  );
}

/** Under a local server's address: whether it answered the setup's last check, in the setup's words. */
export function LocalServerState({ reachable }: { reachable: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={reachable ? 'server-state key-yes' : 'server-state key-no'} data-testid="server-state">
      {localServerState(reachable, t)}
    </div>
  );
}

/** A profile's address, and under a local server's whether it is running. */
function Endpoint({ profile, setup }: { profile: ModelProfileInfo; setup: SetupStatus | null }) {
  const reachable = reachableOf(setup, profile.id);
  return (
    <>
      <div className="cell-mono">{profile.api_base}</div>
      {needsNoKey(profile) && reachable !== null && <LocalServerState reachable={reachable} />}
    </>
  );
}

/** Whether the local server a profile talks to answered the last setup check; null when not known. */
function reachableOf(status: SetupStatus | null, profileId: string): boolean | null {
  return status?.providers.find((p) => p.profiles.some((m) => m.id === profileId))?.reachable ?? null;
}

/** The model profiles with their endpoint, key and limits, a probe for each, and the form that stores keys. */
export function ModelsSection() {
  const { t } = useTranslation();
  const profiles = useApp((s) => s.profiles);
  const labels = useMemo(() => modelLabels(profiles, t), [profiles, t]);
  const setup = useSetup((s) => s.status);
  const ensureSetup = useSetup((s) => s.ensure);
  const [probes, setProbes] = useState<Record<string, ProbeState>>({});

  useEffect(() => {
    void ensureSetup();
  }, [ensureSetup]);

  const probe = async (profileId: string) => {
    setProbes((p) => ({ ...p, [profileId]: { status: 'running' } }));
    try {
      const report = await getApi().client.probeModel({ profile_id: profileId });
      setProbes((p) => ({ ...p, [profileId]: { status: 'done', report } }));
    } catch (err) {
      setProbes((p) => ({ ...p, [profileId]: { status: 'failed', error: toErrorInfo(err) } }));
    }
  };

  return (
    <section className="settings-section" data-testid="models-section">
      <h2 tabIndex={-1}>{t('settings.models')}</h2>
      {/* Narrow (a 900 px window), the endpoint and key go under the model instead of columns of their own. */}
      <div className="table-wrap models-table-wrap">
        <table className="table models-table" data-testid="models-table">
          <thead>
            <tr>
              <th>{t('models.id')}</th>
              <th>{t('models.model')}</th>
              <th className="wide-only">{t('models.apiBase')}</th>
              <th className="wide-only">{t('models.keyEnv')}</th>
              <th className="wide-only">{t('models.hasKey')}</th>
              <th>{t('models.context')}</th>
              <th>{t('models.price')}</th>
              <th>{t('probe.heading')}</th>
            </tr>
          </thead>
          <tbody>
            {profiles.map((p) => (
              <Fragment key={p.id}>
                <tr>
                  <td>
                    <div className="cell-strong" title={p.id}>
                      {labels.get(p.id) ?? p.name}
                    </div>
                    <div className="muted">
                      {providerName(p.provider, t)} · {t(`models.role.${p.role}`)}
                    </div>
                  </td>
                  <td>
                    <div>{p.model}</div>
                    <div className="narrow-only">
                      <Endpoint profile={p} setup={setup} />
                      <ProfileKeyLines profile={p} />
                    </div>
                  </td>
                  <td className="wide-only">
                    <Endpoint profile={p} setup={setup} />
                  </td>
                  <ProfileKeyCells profile={p} className="wide-only" />
                  <td title={plainT('models.contextHint', { reliable: p.reliable_context, output: p.max_output })}>
                    {t('models.contextValue', { max: formatTokens(p.max_context), reliable: formatTokens(p.reliable_context) })}
                  </td>
                  <td>
                    <ProfilePrice price={p.price} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={probes[p.id]?.status === 'running'}
                      onClick={() => void probe(p.id)}
                      title={plainT('probe.hint')}
                      data-testid="probe-button"
                      data-profile={p.id}
                    >
                      {probes[p.id]?.status === 'running' && <span className="spinner" />}
                      {probes[p.id]?.status === 'running' ? t('probe.running') : t('probe.run')}
                    </button>
                  </td>
                </tr>
                {probes[p.id] && probes[p.id].status !== 'running' && (
                  <tr className="probe-row">
                    <td colSpan={8}>
                      <ProbeResult state={probes[p.id]} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
            {profiles.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  {t('models.none')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <ApiKeyForm />
    </section>
  );
}
