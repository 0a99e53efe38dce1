// Issue 10: a procedure touching deletion, deployment, sending, payment or a remote shell is high risk, decided
// from its own words in English and Chinese, not from what its proposer said.
import { describe, expect, it } from 'vitest';
import { assessRisk, riskReasons } from './risk.js';

describe('invariant: the risk of a procedure comes from its steps and text', () => {
  it.each([
    ['Delete the old build folder', 'deletion'],
    ['rm -rf dist before packaging', 'deletion'],
    ['DROP TABLE staging_orders', 'deletion'],
    ['把旧的备份文件删除', 'deletion'],
    ['清空回收站', 'deletion'],
    ['Deploy the API to production', 'deployment'],
    ['kubectl apply -f deploy.yaml', 'deployment'],
    ['npm publish the package', 'deployment'],
    ['部署到生产环境', 'deployment'],
    ['周五晚上发版', 'deployment'],
    ['Send the weekly report to the finance team', 'sending'],
    ['Reply to the customer with the tracking number', 'sending'],
    ['把周报发给王经理', 'sending'],
    ['用邮箱群发通知', 'sending'],
    ['Pay the invoice from the company card', 'payment'],
    ['Transfer the money to the supplier', 'payment'],
    ['给供应商转账 3000 元', 'payment'],
    ['在淘宝下单购买墨盒', 'payment'],
    ['ssh into the build server', 'remote_shell'],
    ['docker exec -it web sh', 'remote_shell'],
    ['远程登录到跳板机', 'remote_shell'],
    ['通过堡垒机执行脚本', 'remote_shell'],
  ])('%s → %s', (text, reason) => {
    expect(riskReasons(text)).toContain(reason);
    expect(assessRisk({ text: 'a procedure', steps: [text], risk: 'low' }).risk).toBe('high');
  });

  it.each([
    'Open the sales dashboard and read the weekly totals',
    'Run npm test and check that every test passes',
    'git checkout the release branch and run the build',
    'Read the error log for the failing job',
    '打开报表，查看本周销售额',
    '运行单元测试，确认全部通过',
    '检查日志里有没有报错',
  ])('no side effect named: %s', (text) => {
    expect(riskReasons(text)).toEqual([]);
    expect(assessRisk({ text, steps: [text] }).risk).toBe('low');
  });

  it('the text counts as well as the steps; a proposer may raise the risk but never lower it', () => {
    const steps = ['Open the admin console', 'Select last month'];
    expect(assessRisk({ text: 'Purge old customer records', steps, risk: 'low' })).toEqual({
      risk: 'high',
      reasons: ['deletion'],
    });
    expect(
      assessRisk({ text: '整理上月数据', steps: ['打开后台', '导出并发给财务'], risk: 'low' }).risk,
    ).toBe('high');
    expect(assessRisk({ text: 'Tidy the notes', steps, risk: 'medium' }).risk).toBe('medium');
    expect(assessRisk({ text: 'Tidy the notes', steps, risk: 'high' }).risk).toBe('high');
  });
});
