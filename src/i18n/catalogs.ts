// Every area's message catalog. An area adds its file here; keys are
// prefixed by area ("app.", "lib.", ...) so catalogs never collide
// (tests/unit/i18n.test.ts checks that and that both languages are complete).
import type { Catalog } from './i18n';
import app from './messages/app';
import exportsCatalog from './messages/exports';
import rqpolicy from './messages/rqpolicy';

export const CATALOGS: Catalog[] = [app, exportsCatalog, rqpolicy];
