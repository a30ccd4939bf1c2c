// Every area's message catalog. An area adds its file here; keys are
// prefixed by area ("app.", "lib.", ...) so catalogs never collide
// (tests/unit/i18n.test.ts checks that and that both languages are complete).
import type { Catalog } from './translate';
import app from './messages/app';
import controls from './messages/controls';
import views from './messages/views';
import inspector from './messages/inspector';
import compare from './messages/compare';
import classroom from './messages/classroom';
import lessons from './messages/lessons';
import exercise from './messages/exercise';
import share from './messages/share';
import library from './messages/library';
import editor from './messages/editor';
import exportsCatalog from './messages/exports';
import rqpolicy from './messages/rqpolicy';
import eevdf from './messages/eevdf';
import rtclass from './messages/rtclass';
import dlclass from './messages/dlclass';
import classes from './messages/classes';
import why from './messages/why';
import events from './messages/events';
import trace from './messages/trace';
import a11y from './messages/a11y';

export const CATALOGS: Catalog[] = [
  app,
  controls,
  views,
  inspector,
  compare,
  classroom,
  lessons,
  exercise,
  share,
  library,
  editor,
  exportsCatalog,
  rqpolicy,
  eevdf,
  rtclass,
  dlclass,
  classes,
  why,
  events,
  trace,
  a11y,
];
