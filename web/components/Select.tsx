// Focus pickers shown in panel headers: choose the informer or controller a panel shows.
import { navigate } from '../client/route';
import type { PanelId } from '../client/route';

export interface FocusSelectProps {
  panel: PanelId;
  field: 'informer' | 'controller';
  value: string | undefined;
  options: readonly string[];
  label: string;
}

export function FocusSelect({ panel, field, value, options, label }: FocusSelectProps) {
  return (
    <label className="toolbar dim" style={{ fontSize: 12 }}>
      {label}
      <select
        className="sel"
        value={value ?? ''}
        data-testid={`select-${field}`}
        onChange={(e) => navigate({ panel, [field]: e.target.value, key: undefined })}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
