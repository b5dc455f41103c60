// The dashboard's entry: styles, link handling, and the app drawn into #app.
import { render } from 'preact';
import { App } from './app/App.tsx';
import { interceptLinks } from './app/router.tsx';
import './styles/app.css';

interceptLinks();
render(<App />, document.getElementById('app')!);
