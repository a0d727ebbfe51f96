// A labelled box of a console form, with its hint and its problem under it: the problem is
// the refused save's own, found by its JSON Pointer, and the box says so to a screen reader
// (aria-invalid, aria-describedby naming the hint and the problem). A form of such boxes
// over a draft (`fieldBoxes`) in the console's panel (`DraftForm`): its title, its save and
// cancel buttons, what became of the save.
import type { HTMLInputTypeAttribute, ReactNode } from 'react';
import { ErrorBox } from './states.tsx';

export type FieldOptions = {
  required?: boolean;
  disabled?: boolean;
  hint?: string;
  autoComplete?: string;
  inputMode?: 'tel' | 'email';
};

export function FormField(props: {
  id: string;
  label: string;
  type: HTMLInputTypeAttribute;
  value: string;
  onChange: (value: string) => void;
  problem: string | undefined;
  options: FieldOptions;
}) {
  const { id, problem, options } = props;
  const described = [options.hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type}
        value={props.value}
        required={options.required}
        disabled={options.disabled}
        inputMode={options.inputMode}
        autoComplete={options.autoComplete ?? 'off'}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {options.hint && (
        <p id={`${id}-hint`} className="muted small">
          {options.hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-problem`} className="field-error">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The box of each field of a draft: `box(field, type, options)`, its id `${idPrefix}-${field}`. */
export function fieldBoxes<F extends string>(
  idPrefix: string,
  label: (field: F) => string,
  draft: Record<F, string>,
  setDraft: (draft: Record<F, string>) => void,
  problems: ReadonlyMap<F, string>,
) {
  return (field: F, type: HTMLInputTypeAttribute, options: FieldOptions = {}) => (
    <FormField
      id={`${idPrefix}-${field}`}
      label={label(field)}
      type={type}
      value={draft[field]}
      onChange={(value) => setDraft({ ...draft, [field]: value })}
      problem={problems.get(field)}
      options={options}
    />
  );
}

/** A console form in a panel: its title (naming the form), its boxes, a save button, a cancel button while editing, and what became of the save. */
export function DraftForm(props: {
  id: string;
  className?: string;
  title: string;
  onSubmit: () => void;
  save: { label: string; pending: boolean };
  cancel?: { label: string; onClick: () => void };
  /** What the page says of a save that went through. */
  saved: ReactNode;
  error: unknown;
  children: ReactNode;
}) {
  return (
    <form
      className={props.className ? `panel filters ${props.className}` : 'panel filters'}
      aria-labelledby={props.id}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <h2 id={props.id} className="full">
        {props.title}
      </h2>
      {props.children}
      <div className="full">
        <button type="submit" className="primary" disabled={props.save.pending}>
          {props.save.label}
        </button>{' '}
        {props.cancel && (
          <button type="button" onClick={props.cancel.onClick}>
            {props.cancel.label}
          </button>
        )}
      </div>
      <div className="full">
        {props.saved}
        {props.error ? <ErrorBox error={props.error} /> : null}
      </div>
    </form>
  );
}
