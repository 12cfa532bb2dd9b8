import { describe, expect, it } from 'vitest';
import { commandGrantKey, commandNeedsNetwork } from './traits';

describe('commandNeedsNetwork', () => {
  it.each([
    ['curl -s https://example.com', 'curl'],
    ['wget -q http://x/y.tgz', 'wget'],
    ['git clone https://github.com/a/b', 'git clone'],
    ['git -C repo fetch origin', 'git fetch'],
    ['git pull', 'git pull'],
    ['git push origin main', 'git push'],
    ['npm install', 'npm install'],
    ['npm i left-pad', 'npm i'],
    ['pip install requests', 'pip install'],
    ['python3 -m pip install requests', 'python3 -m pip install'],
    ['cargo install ripgrep', 'cargo install'],
    ['ssh host uptime', 'ssh'],
    ['rsync -a src/ host:dst/', 'rsync'],
    ['yarn', 'yarn install'],
    ['cd app && npm ci', 'npm ci'],
    ['timeout 30 curl x', 'curl'],
    ['echo $(curl -s x)', 'curl'],
  ])('%s needs the network (%s)', (command, need) => {
    expect(commandNeedsNetwork(command)).toBe(need);
  });

  it.each(['ls -la', 'git status', 'git commit -m x', 'npm test', 'npm run build', 'pip list', 'cargo build', 'rsync -a src/ dst/', 'cat curl.txt', 'echo curl'])(
    '%s does not',
    (command) => {
      expect(commandNeedsNetwork(command)).toBeNull();
    },
  );
});

describe('commandGrantKey', () => {
  it.each([
    ['npm test', 'npm test'],
    ['npm run build', 'npm run'],
    ['git commit -m "fix: x"', 'git commit'],
    ['git status', 'git status'],
    ['git log --oneline -5', 'git log'],
    ['ls -la', 'ls'],
    ['pytest -q tests', 'pytest'],
    ['make', 'make'],
    ['cargo test --release', 'cargo test'],
  ])('%s → %s', (command, key) => {
    expect(commandGrantKey(command)).toBe(key);
  });

  it.each([
    'npm test && rm -rf work', // compound
    'ls | grep x', // pipeline
    'sleep 10 &', // background
    'NODE_OPTIONS=--require=./x.js npm test', // assignment changes what runs
    'npm test > log.txt', // redirection
    'git -C ../other status', // a global option changes where it runs
    'git -c core.pager=id log', // and what it runs
    'env npm test', // wrapper
    'timeout 5 npm test',
    'python3 script.py', // interpreter: the code is the file
    'bash build.sh',
    './build.sh', // a program by path
    'npx some-package',
    '$CMD test',
    'rm -f x', // not standard
    'git push --force',
    'echo "unterminated',
  ])('%s → null', (command) => {
    expect(commandGrantKey(command)).toBeNull();
  });
});
