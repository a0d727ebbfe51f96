// Test mode's own page (src/modules/sandbox): the sandbox's time, its progress along the
// 14-step load order (GET /sandbox/checklist), each step linking to where it shows, and
// the test inbox (GET /sandbox/messages): what its store users would have been sent.
import { useQuery } from '@tanstack/react-query';
import { client } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

export default function Sandbox() {
  const t = useT();
  const f = useFormat();
  const clock = useQuery({ queryKey: ['sandbox-clock'], queryFn: () => client.get('/sandbox/clock') });
  const checklist = useQuery({ queryKey: ['sandbox-checklist'], queryFn: () => client.get('/sandbox/checklist') });
  const inbox = useQuery({ queryKey: ['sandbox-messages'], queryFn: () => client.get('/sandbox/messages', { params: { query: { take: 20 } } }) });
  if (checklist.isPending) return <Loading />;
  if (checklist.error) return <ErrorBox error={checklist.error} retry={() => void checklist.refetch()} />;
  const list = checklist.data;
  return (
    <section>
      <h1>{t('sandbox.title')}</h1>
      <p>{t('sandbox.intro')}</p>
      {clock.data && (
        <dl className="facts">
          <dt>{t('sandbox.clock')}</dt>
          <dd data-testid="sandbox-clock">
            {f.dateTime(clock.data.now)} {clock.data.moved ? t('sandbox.moved') : t('sandbox.real')}
          </dd>
        </dl>
      )}
      <h2>{t('sandbox.checklist', { done: list.done, total: list.steps.length })}</h2>
      <ol className="checklist" data-testid="checklist">
        {list.steps.map((s) => (
          <li key={s.key} className={s.done ? 'done' : 'todo'} data-step={s.key} data-done={s.done}>
            <span className="mark" aria-hidden="true">
              {s.done ? '✓' : '○'}
            </span>
            <span>
              {s.step}. <a href={s.link}>{s.title}</a> {s.done ? t('sandbox.stepDone') : t('sandbox.stepTodo')}
              {s.missing && s.missing.length > 0 ? ` · ${t('sandbox.missing', { types: s.missing.join(', ') })}` : ''}
            </span>
          </li>
        ))}
      </ol>
      <h2>{t('sandbox.inbox')}</h2>
      {inbox.isPending ? (
        <Loading />
      ) : inbox.error ? (
        <ErrorBox error={inbox.error} retry={() => void inbox.refetch()} />
      ) : inbox.data.data.length === 0 ? (
        <Empty>{t('sandbox.inboxEmpty')}</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table data-testid="inbox">
            <thead>
              <tr>
                <th scope="col">{t('sandbox.when')}</th>
                <th scope="col">{t('sandbox.to')}</th>
                <th scope="col">{t('sandbox.message')}</th>
              </tr>
            </thead>
            <tbody>
              {inbox.data.data.map((m) => (
                <tr key={m.id}>
                  <td>{f.dateTime(m.createdAt)}</td>
                  <td>{m.to}</td>
                  <td>{m.status === 'withheld' ? t('sandbox.withheld') : [m.subject, m.body].filter(Boolean).join(' · ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
