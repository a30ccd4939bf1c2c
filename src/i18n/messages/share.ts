// Share links: the button, the link field and why a link could not be made or opened.
import type { Catalog } from '../translate';

const share: Catalog = {
  en: {
    'share.button': 'Share link',
    'share.buttonTitle': 'Put a link to this scenario and this moment in the address bar and copy it',
    'share.linkLabel': 'link to this view',
    'share.copied': 'Copied to the clipboard.',
    'share.copyByHand': 'The clipboard is not available here: copy the link from the field.',
    'share.cannotMake': 'No link made:',
    'share.make.too-long':
      'this scenario makes a link of {size} characters, more than the {max} a link may have. Share the scenario file instead.',
    'share.opening': 'opening the shared moment…',
    'share.problemTitle': 'This link could not be opened.',
    'share.defaultLoaded': 'The default scenario was loaded instead.',
    'share.dismiss': 'Dismiss',
    'share.problem.not-a-link': 'The part after # is not a schedlab share link.',
    'share.problem.unknown-version':
      'The link is in format version {version}, which this version of schedlab cannot read.',
    'share.problem.too-long': 'The link is {size} characters long; links longer than {max} characters are refused.',
    'share.problem.bad-encoding':
      'The link contains characters that a share link never has; it was probably cut or altered when copied.',
    'share.problem.bad-compression':
      'The compressed data in the link is incomplete or damaged; it was probably cut off when copied.',
    'share.problem.too-large': 'The link would unpack to more than {max} bytes, so it was not unpacked.',
    'share.problem.bad-text': 'The link unpacks to something that is not text.',
    'share.problem.bad-json': 'The link unpacks to text that is not valid JSON.',
    'share.problem.bad-field': 'The link carries an invalid value in “{field}”.',
    'share.problem.unknown-partner': 'The link compares with a preset this version does not have: “{name}”.',
    'share.problem.scenario': 'The scenario in the link cannot run:',
  },
  zh: {
    'share.button': '分享链接',
    'share.buttonTitle': '把指向当前场景和当前时刻的链接放进地址栏并复制',
    'share.linkLabel': '当前视图的链接',
    'share.copied': '已复制到剪贴板。',
    'share.copyByHand': '此处无法使用剪贴板，请从输入框中手动复制链接。',
    'share.cannotMake': '未生成链接：',
    'share.make.too-long': '该场景生成的链接有 {size} 个字符，超过了链接上限 {max}。请改为分享场景文件。',
    'share.opening': '正在打开分享的时刻…',
    'share.problemTitle': '无法打开此链接。',
    'share.defaultLoaded': '已改为加载默认场景。',
    'share.dismiss': '关闭',
    'share.problem.not-a-link': '# 后面的内容不是 schedlab 分享链接。',
    'share.problem.unknown-version': '该链接的格式版本为 {version}，当前版本的 schedlab 无法读取。',
    'share.problem.too-long': '该链接长 {size} 个字符，超过 {max} 个字符的链接一律拒绝。',
    'share.problem.bad-encoding': '链接中含有分享链接不会出现的字符，可能在复制时被截断或改动。',
    'share.problem.bad-compression': '链接中的压缩数据不完整或已损坏，可能在复制时被截断。',
    'share.problem.too-large': '该链接解压后将超过 {max} 字节，因此未予解压。',
    'share.problem.bad-text': '该链接解压后不是文本。',
    'share.problem.bad-json': '该链接解压后的文本不是合法的 JSON。',
    'share.problem.bad-field': '链接中“{field}”的值无效。',
    'share.problem.unknown-partner': '链接要对比的预设在当前版本中不存在：“{name}”。',
    'share.problem.scenario': '链接中的场景无法运行：',
  },
};
export default share;
