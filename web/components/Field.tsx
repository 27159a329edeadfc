// Labelled form inputs (text and number) as the faults and workload forms lay them out.
import type { CSSProperties } from 'react';

interface FieldProps<V> {
  label: string;
  value: V;
  onChange: (value: V) => void;
  /** Fixed input width in px. Default: the form's column width. */
  width?: number;
}

const widthStyle = (width: number | undefined): CSSProperties | undefined =>
  width === undefined ? undefined : { width };

export function TextField({
  label,
  value,
  onChange,
  placeholder,
  width,
}: FieldProps<string> & { placeholder?: string }) {
  return (
    <label className="field">
      {label}
      <input
        className="inp"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        style={widthStyle(width)}
      />
    </label>
  );
}

export function NumberField({ label, value, onChange, step, width }: FieldProps<number> & { step?: string }) {
  return (
    <label className="field">
      {label}
      <input
        className="inp"
        type="number"
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        style={widthStyle(width)}
      />
    </label>
  );
}
