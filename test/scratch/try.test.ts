import { startRedisCluster, nodeCommand } from '../harness/redis-cluster';
import { spawn } from 'node:child_process';
test('try', async () => {
  const child = spawn('redis-server', ['--port', '45999', '--save', '', '--appendonly', 'no', '--cluster-enabled', 'yes', '--cluster-config-file', '/tmp/n45999.conf'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  const t = Date.now();
  console.log(await nodeCommand('127.0.0.1:45999', ['PING']), Date.now() - t);
  child.kill();
  const bed = await startRedisCluster();
  console.log(bed.seconds);
  await bed.stop();
}, 120000);
