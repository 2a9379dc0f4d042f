// Entry point. API_URL and API_KEY are set when the page is bundled (serve.mjs),
// as a Vite app would take them from import.meta.env.
import { createApi } from './api';
import { mountPage } from './page';

declare const API_URL: string;
declare const API_KEY: string;

mountPage(createApi(API_URL, API_KEY));
