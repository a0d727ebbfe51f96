// Who did something, in words: an API credential (its client id), a console member (their
// email) or the platform's operators (to a supplier, just "the platform"). Used by the batches (who sent one) and the audit log.
import { useT } from '../i18n.ts';

export type ActorKind = 'credential' | 'operator' | 'person';

export function Actor({ actor }: { actor: { kind: ActorKind; id: string } | null }) {
  const t = useT();
  if (!actor) return <span className="muted">{t('actor.unknown')}</span>;
  return (
    <span data-actor={actor.kind}>
      {actor.kind === 'credential' ? (
        <>
          {t('actor.credential')} <code>{actor.id}</code>
        </>
      ) : actor.kind === 'operator' ? (
        // A supplier's readers get every operator as `platform` (src/modules/audit/README.md).
        actor.id === 'platform' ? t('actor.platform') : t('actor.operator', { id: actor.id })
      ) : (
        actor.id
      )}
    </span>
  );
}
