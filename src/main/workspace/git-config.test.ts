import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempRoot, removeTemp } from '../tools/testing';
import { gitConfigRisks, parseGitConfig, runsCode } from './git-config';

let repo: string;
beforeEach(() => {
  repo = makeTempRoot('folio-git-config-');
});
afterEach(() => removeTemp(repo));

describe('git configuration that runs programs', () => {
  it.each([
    ['[core]\n\thooksPath = .githooks', 'core.hookspath'],
    ['[core]\n\tfsmonitor = "./watch.sh"', 'core.fsmonitor'],
    ['[core] sshCommand = ssh -i key', 'core.sshcommand'],
    ['[core]\npager = less; rm -rf x', 'core.pager'],
    ['[core]\neditor = vim', 'core.editor'],
    ['[diff]\n\texternal = ./d.sh', 'diff.external'],
    ['[diff "pdf"]\n\ttextconv = pdftotext', 'diff.pdf.textconv'],
    ['[filter "lfs"]\n\tsmudge = git-lfs smudge -- %f', 'filter.lfs.smudge'],
    ['[filter "x"]\n\tprocess = ./p', 'filter.x.process'],
    ['[merge "ours"]\n\tdriver = ./m %A', 'merge.ours.driver'],
    ['[include]\n\tpath = ../evil.cfg', 'include.path'],
    ['[includeIf "gitdir:/"]\n\tpath = x.cfg', 'includeif.gitdir:/.path'],
    ['[alias]\n\tst = !sh -c id', 'alias.st'],
    ['[credential]\n\thelper = !./steal', 'credential.helper'],
    ['[gpg]\n\tprogram = ./g', 'gpg.program'],
    ['[pager]\n\tlog = ./p', 'pager.log'],
    ['[remote "origin"]\n\tuploadpack = ./u', 'remote.origin.uploadpack'],
    ['[CORE]\n\tFSMonitor = x', 'core.fsmonitor'],
  ])('%j is reported as %s', (text, key) => {
    const found = parseGitConfig(text).filter(runsCode);
    expect(found.map((f) => f.key.toLowerCase())).toEqual([key]);
  });

  it.each([
    '[core]\n\tfsmonitor = true',
    '[core]\n\tfsmonitor = false',
    '[core]\n\tbare = false\n\tfilemode = true',
    '[alias]\n\tst = status',
    '[remote "origin"]\n\turl = https://example.com/r.git',
    '# [core] pager = x',
  ])('%j is not', (text) => {
    expect(parseGitConfig(text).filter(runsCode)).toEqual([]);
  });

  it("reads the repository's own config and hooks, not the samples", () => {
    expect(gitConfigRisks(repo)).toEqual([]);
    fs.mkdirSync(path.join(repo, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "./x.sh"\n[alias]\n\tlg = log\n');
    fs.writeFileSync(path.join(repo, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
    expect(gitConfigRisks(repo)).toEqual([{ key: 'core.fsmonitor', value: './x.sh' }]);
    fs.writeFileSync(path.join(repo, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nid\n');
    expect(gitConfigRisks(repo)).toEqual([
      { key: 'core.fsmonitor', value: './x.sh' },
      { key: 'hook', value: 'pre-commit' },
    ]);
  });

  it('follows a .git file (a worktree) to its git folder', () => {
    const real = path.join(repo, 'elsewhere.git');
    fs.mkdirSync(real);
    fs.writeFileSync(path.join(real, 'config'), '[core]\n\thooksPath = /tmp/h\n');
    const work = path.join(repo, 'work');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, '.git'), `gitdir: ${real}\n`);
    expect(gitConfigRisks(work)).toEqual([{ key: 'core.hooksPath', value: '/tmp/h' }]);
  });

  it('a FIFO planted as .git/config does not hang the check', () => {
    fs.mkdirSync(path.join(repo, '.git'));
    execFileSync('mkfifo', [path.join(repo, '.git', 'config')]);
    expect(gitConfigRisks(repo)).toEqual([]);
  });
});
