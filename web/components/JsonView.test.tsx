import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { JsonView } from './JsonView';

describe('JsonView', () => {
  it('colours keys, strings, numbers and literals and keeps the text intact', () => {
    const html = renderToString(<JsonView value={{ name: 'web-1', replicas: 3, ready: true, owner: null }} />);
    expect(html).toContain('<span class="j-key">&quot;name&quot;</span>');
    expect(html).toContain('<span class="j-str">&quot;web-1&quot;</span>');
    expect(html).toContain('<span class="j-num">3</span>');
    expect(html).toContain('<span class="j-lit">true</span>');
    expect(html).toContain('<span class="j-lit">null</span>');
    const text = html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"');
    expect(JSON.parse(text)).toEqual({ name: 'web-1', replicas: 3, ready: true, owner: null });
  });
});
