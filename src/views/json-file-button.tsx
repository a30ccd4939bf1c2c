// A button that picks a scenario JSON file. The input is cleared after each
// pick, so the same file can be picked again (after editing it on disk).
export function JsonFileButton(props: {
  label: string;
  onFile: (file: File) => void;
  className?: string;
  testId?: string;
}) {
  return (
    <label className={props.className ?? 'file'}>
      {props.label}
      <input
        type="file"
        accept="application/json,.json"
        data-testid={props.testId}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) props.onFile(f);
          e.target.value = '';
        }}
      />
    </label>
  );
}
