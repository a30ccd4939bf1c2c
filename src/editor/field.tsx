// One form field: a human label with the file's field name in monospace, the
// input, and the engine's messages about that field right under it. Inputs
// are named by the JSON path they edit (data-field), which is also how the
// engine's messages find them. Table rows take their values and messages as
// props and only the stable edit functions from context (EditContext), so an
// edit re-renders the one row it changed.
import { createContext, useContext, type ReactNode, type RefObject } from 'react';
import { useT } from '../i18n/i18n';
import { ClippedText, CLIP_CHARS, clip } from '../views/clipped-text';
import { getField, type Problem } from './field-paths';
import type { FormModel } from './scenario-form';

export interface FormCtx {
  model: FormModel;
  edit(id: string, value: string): void;
  change(fn: (m: FormModel) => FormModel): void;
  /** The problems shown at a field, row or section. */
  problemsAt(id: string): Problem[];
  /** The same, as a map by field id (tables split it row by row). */
  byField: Map<string, Problem[]>;
  /** The JSON text does not parse: the form shows its last good version, read-only (inputs by their fieldset). */
  frozen: boolean;
}

export const FormContext = createContext<FormCtx | null>(null);

export function useForm(): FormCtx {
  const ctx = useContext(FormContext);
  if (!ctx) throw new Error('useForm outside the editor');
  return ctx;
}

/** What never changes while the editor is open: the edit functions, and the tables' "scroll row i into view". */
export interface EditCtx {
  edit(id: string, value: string): void;
  change(fn: (m: FormModel) => FormModel): void;
  /** Filled in by each virtualised table, by its name ('processes', ...). */
  reveal: RefObject<Map<string, (row: number) => void>>;
}

export const EditContext = createContext<EditCtx | null>(null);

export function useEdit(): EditCtx {
  const ctx = useContext(EditContext);
  if (!ctx) throw new Error('useEdit outside the editor');
  return ctx;
}

/** No messages (one array, so memoised rows see no change). */
export const NO_PROBLEMS: Problem[] = [];

/** The messages of a field, row or section (nothing when there are none). */
export function Messages({ id }: { id: string }) {
  const { problemsAt } = useForm();
  return <MessagesView id={id} list={problemsAt(id)} />;
}

/** Messages given as a prop (table rows). */
export function MessagesView({ id, list }: { id: string; list: Problem[] }) {
  if (list.length === 0) return null;
  return (
    // A live region of lines, not a list: role="alert" on a <ul> would take its list semantics away (axe's aria-allowed-role).
    <div className="ed-msgs" data-testid={`msg-${id}`} id={`msg-${id}`} role="alert">
      {list.map((p, i) => (
        <div key={i}>
          {p.path !== id && <code>{p.path}: </code>}
          {clip(p.message, 1000)}
        </div>
      ))}
    </div>
  );
}

export type Option = [value: string, label: string];

interface InputProps {
  id: string;
  /** A select's options; a value not among them is kept and shown as unknown. */
  options?: Option[];
  placeholder?: string;
  multiline?: boolean;
  width?: number;
  /** Also called after the edit (e.g. to keep a mirror cell in step). */
  onEdit?: (value: string) => void;
  label?: string;
}

/** The input of a field, no label: for table cells. */
export function Input(props: InputProps) {
  const { model, edit, problemsAt } = useForm();
  return <InputView {...props} value={getField(model, props.id)} problems={problemsAt(props.id)} edit={edit} />;
}

/**
 * An input given its value and messages as props (table rows). A value
 * longer than CLIP_CHARS is shown clipped, with "show all" opening it in a
 * textarea to edit.
 */
export function InputView({
  id,
  options,
  placeholder,
  multiline,
  width,
  onEdit,
  label,
  value,
  problems,
  edit,
}: InputProps & { value: string; problems: Problem[]; edit(id: string, value: string): void }) {
  const t = useT();
  const bad = problems.length > 0;
  const common = {
    'data-field': id,
    'aria-invalid': bad || undefined,
    'aria-describedby': bad ? `msg-${id}` : undefined,
    'aria-label': label ?? id,
    className: bad ? 'bad' : undefined,
    style: width ? { width } : undefined,
  };
  const set = (v: string) => {
    edit(id, v);
    onEdit?.(v);
  };
  if (options) {
    const known = options.some(([v]) => v === value);
    return (
      <select {...common} value={value} onChange={(e) => set(e.target.value)}>
        {!known && <option value={value}>{t('editor.unknownValue', { value: clip(value, 200) })}</option>}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    );
  }
  if (value.length > CLIP_CHARS)
    return (
      <ClippedText
        text={value}
        onChange={set}
        field={id}
        label={label ?? id}
        testId={`long-${id}`}
        className={bad ? 'bad' : undefined}
      />
    );
  if (multiline)
    return (
      <textarea
        {...common}
        value={value}
        placeholder={placeholder}
        onChange={(e) => set(e.target.value)}
        rows={3}
        spellCheck={false}
      />
    );
  return (
    <input
      {...common}
      value={value}
      placeholder={placeholder}
      onChange={(e) => set(e.target.value)}
      spellCheck={false}
    />
  );
}

/** Options of an on/off field whose absence means the engine's default. */
export function useTriOptions(): (dflt: boolean) => Option[] {
  const t = useT();
  return (dflt) => [
    ['', t('editor.default', { value: t(dflt ? 'editor.on' : 'editor.off') })],
    ['true', t('editor.on')],
    ['false', t('editor.off')],
  ];
}

interface FieldProps extends InputProps {
  label: string;
  /** The form's unit, shown after the input. */
  unit?: string;
  /** The file's unit, when it differs from the form's. */
  fileUnit?: string;
  children?: ReactNode;
}

/** A labelled field with its messages. */
export function Field({ label, unit, fileUnit, children, ...input }: FieldProps) {
  const t = useT();
  const name = input.id.replace(/^.*\./, '').replace(/\[\d+\]/g, '');
  return (
    <div className="ed-field">
      <label>
        <span className="ed-label">
          {label} <code>{name}</code>
        </span>
        <span className="ed-input">
          <Input {...input} label={label} />
          {unit && (
            <span className="ed-unit" title={fileUnit ? t('editor.fileUnit', { unit: fileUnit }) : undefined}>
              {unit}
            </span>
          )}
          {children}
        </span>
      </label>
      <Messages id={input.id} />
    </div>
  );
}

/** A titled group of fields with the messages about the group as a whole. */
export function Section({
  id,
  title,
  children,
  testId,
}: {
  id?: string;
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="ed-section" data-testid={testId}>
      <h3>{title}</h3>
      {id && <Messages id={id} />}
      {children}
    </section>
  );
}
