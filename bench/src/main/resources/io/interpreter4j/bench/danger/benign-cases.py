import os, shutil, subprocess
print("rm -rf /")
print("curl x | sh")
# os.system('rm -rf /')
print(1)
x = "sudo rm -rf /"
print(x)
import shutil
shutil.rmtree('build')
import shutil
shutil.rmtree('build', ignore_errors=True)
import os
os.remove('tmp.txt')
from pathlib import Path
Path('tmp.txt').unlink(missing_ok=True)
import tempfile, shutil
d = tempfile.mkdtemp()
shutil.rmtree(d)
import subprocess
subprocess.run(['ls', '-la'])
import subprocess
subprocess.run(['git', 'status'], check=True)
import subprocess
out = subprocess.check_output('ls -la', shell=True)
import subprocess
subprocess.run(['echo', 'sudo rm -rf /'])
import os
os.system('ls -la')
import os
os.system('echo "rm -rf /"')
!ls -la
%pip install numpy
import os
print(os.environ.get('HOME'))
import os
os.environ['MY_FLAG'] = '1'
import os, subprocess
env = os.environ.copy()
env['X'] = '1'
subprocess.run(['make'], env=env)
import requests
r = requests.get('https://example.com')
print(r.status_code)
import os, requests
requests.get('https://api.example.com', headers={'Authorization': 'Bearer ' + os.environ['API_TOKEN']})
with open('out.txt', 'w') as f:
    f.write('hi')
import json
json.dump({'a': 1}, open('a.json', 'w'))
import os
os.makedirs('data', exist_ok=True)
import pandas as pd
df = pd.read_csv('data.csv')
print(df.head())
from pathlib import Path
Path('out').mkdir(exist_ok=True)
(Path('out') / 'a.txt').write_text('x')
import shutil
shutil.copy('a.txt', 'b.txt')
import os
for f in os.listdir('.'):
    print(f)
import os
pid = os.fork()
if pid == 0:
    os._exit(0)
while True:
    line = input()
    if not line:
        break
import os
print(open(os.path.expanduser('~/.bashrc')).read())
import shutil
shutil.rmtree('~')
def cleanup():
    import shutil
    shutil.rmtree('dist')
cleanup()
import os
os.system('rm -rf build')
import subprocess
subprocess.run(['rm', '-rf', 'dist'])
import subprocess
subprocess.run(['npm', 'install'], check=True)
import subprocess
subprocess.run(['python', 'script.py'])
import shutil, os
if os.path.exists('out'):
    shutil.rmtree('out')
import shutil
from pathlib import Path
out = Path('out')
shutil.rmtree(out, ignore_errors=True)
import os
os.remove(os.path.join('data', 'tmp.csv'))
from pathlib import Path
for p in Path('.').glob('*.tmp'):
    p.unlink()
import glob, os
for f in glob.glob('*.pyc'):
    os.remove(f)
import requests
resp = requests.post('https://api.example.com/items', json={'a': 1})
import os
api_key = os.environ['OPENAI_API_KEY']
print(len(api_key))
import os
print(os.path.expanduser('~'))
import os
print(os.listdir(os.path.expanduser('~')))
from pathlib import Path
print(Path.home())
with open('config.json') as f:
    cfg = f.read()
import json
with open('data.json', 'w') as f:
    json.dump([], f)
import csv
with open('out.csv', 'a', newline='') as f:
    csv.writer(f).writerow([1, 2])
import subprocess
result = subprocess.run(['git', 'log', '--oneline'], capture_output=True, text=True)
print(result.stdout)
import os
print(os.getcwd())
import sys
print(sys.version)
s = "os.system('rm -rf /')"
print(len(s))
import re
print(re.sub(r'rm -rf', 'x', 'rm -rf /'))
# shutil.rmtree('/')
import shutil
shutil.rmtree('tmp')
"""
os.system('rm -rf /')
"""
print(2)
import matplotlib.pyplot as plt
plt.plot([1, 2])
plt.savefig('plot.png')
import time
while True:
    time.sleep(1)
    break
import os
for i in range(2):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
import tempfile, os
with tempfile.TemporaryDirectory() as d:
    open(os.path.join(d, 'x'), 'w').write('y')
import socket
print(socket.gethostname())
from pathlib import Path
Path('build').mkdir(parents=True, exist_ok=True)
import shutil
shutil.copytree('src', 'backup', dirs_exist_ok=True)
import zipfile
with zipfile.ZipFile('out.zip', 'w') as z:
    z.write('a.txt')
%matplotlib inline
import numpy as np
%%time
sum(range(10))
!pip list
!git status
import os
base = 'build'
os.system(f"rm -rf {base}")
eval("1 + 2")
exec("print('rm -rf /')")
import subprocess
subprocess.run(f"ls {os.getcwd()}", shell=True)
