// A webhook's settings as facts (a <dl>'s items), the same on the supplier's webhook page
// and in the operators' view of a supplier: the URL (masked by the service), its state,
// when it changed and how long a rotated secret still signs. Without a URL, that events
// wait for one.
import type { WebhookSettings } from '../lib/api.ts';
import { useFormat, useT } from '../i18n.ts';

export function WebhookFacts({ settings }: { settings: Pick<WebhookSettings, 'baseUrl' | 'enabled' | 'updatedAt' | 'previousSecretExpiresAt'> }) {
  const t = useT();
  const f = useFormat();
  return (
    <>
      <dt>{t('webhooks.url')}</dt>
      <dd>
        <code data-testid="webhook-url">{settings.baseUrl ?? t('webhooks.none')}</code>
        {/* Events are kept meanwhile (the deliveries say "Esperando una URL"), and go out once a URL is set. */}
        {settings.baseUrl === null && <p className="help small">{t('webhooks.noUrlHint')}</p>}
      </dd>
      <dt>{t('webhooks.state')}</dt>
      <dd data-testid="webhook-state">{settings.enabled ? t('webhooks.on') : t('webhooks.off')}</dd>
      {settings.updatedAt && (
        <>
          <dt>{t('webhooks.updated')}</dt>
          <dd>{f.dateTime(settings.updatedAt)}</dd>
        </>
      )}
      {settings.previousSecretExpiresAt && (
        <>
          <dt>{t('webhooks.previousSecret')}</dt>
          <dd>{t('webhooks.previousUntil', { at: f.dateTime(settings.previousSecretExpiresAt) })}</dd>
        </>
      )}
    </>
  );
}
