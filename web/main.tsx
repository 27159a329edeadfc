// Entry point: one store, one connection, the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { Connection } from './client/connection';
import { ConnectionContext, StoreContext } from './client/hooks';
import { RuntimeStore } from './client/runtime-store';
import { applyTheme } from './client/theme';
import './styles.css';
import './theme.css';

applyTheme();

const store = new RuntimeStore({ publishEveryMs: 250 });
const connection = new Connection({ store });
connection.start();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <ConnectionContext.Provider value={connection}>
        <App />
      </ConnectionContext.Provider>
    </StoreContext.Provider>
  </StrictMode>,
);
