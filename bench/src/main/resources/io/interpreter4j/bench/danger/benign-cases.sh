rm -rf ./build
rm -rf build/ dist/
rm -r tmpdir
rm -rf /tmp/i4j-scratch
rm file.txt
rm -rf node_modules
rm -rf build/*
rm -f *.log
rm -rf "$PWD/build"
rm -rf ~/project/build
DIR=build; rm -rf "$DIR/"*
rm -rf "$DIR"
rm -rf "${DIR:?}/"*
cd build && rm -rf *
if [ -d build ]; then rm -rf build; fi
mkdir -p /tmp/work && cd /tmp/work && rm -rf *
tmp=$(mktemp -d) && cd "$tmp" && rm -rf *
tmp=$(mktemp -d); echo hi > "$tmp/a"; rm -rf "$tmp"
find . -name '*.pyc' -delete
find . -type d -name __pycache__ -exec rm -rf {} +
find build -name '*.o' -delete
git status
git push
git push origin feature/x
git push --tags
git reset --soft HEAD~1
git reset HEAD file.txt
git log --oneline | head
git clean -n
git checkout -b feature
git stash && git pull --rebase && git stash pop
git branch -d old
git commit -am "rm -rf the old stuff"
git rm -r --cached node_modules
ls -la ~
cat ~/.bashrc
ls ~/.ssh
cat ~/.ssh/id_rsa.pub
test -f ~/.ssh/id_rsa && echo present
chmod 600 ~/.ssh/id_rsa
ssh -i ~/.ssh/id_rsa user@host uptime
ssh-keygen -t ed25519 -f ./deploy_key -N ''
du -sh ~/Downloads
echo hello > out.txt
echo "done" >> log.txt
curl https://example.com -o page.html
curl -s https://api.github.com/repos/x/y | jq .stargazers_count
wget https://example.com/data.csv
curl -fsSL https://example.com/install.sh -o install.sh && less install.sh
curl -X POST -H "Content-Type: application/json" -d '{"a":1}' https://api.example.com/items
curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user
scp build.tar.gz user@server:/srv/app/
rsync -av dist/ user@host:/var/www/
kill 1234
kill -9 4321
pkill -f "python server.py"
ps aux | grep python
chmod +x script.sh
chmod -R 755 ./dist
chmod -R u+w ./build
chown -R $(whoami) ./data
dd if=/dev/zero of=./disk.img bs=1M count=10
ls -la /dev/sda
echo "use sudo to install"
echo 'sudo' | wc -c
man sudo
which sudo
grep -rn "rm -rf" src/
grep -c sudo /etc/group
# rm -rf /
echo ok
echo "rm -rf / is dangerous"
echo ':(){ :|:& };:'
echo shutdown
cat <<'EOF' > notes.md
rm -rf / is bad
sudo reboot
EOF
export PATH="$HOME/.local/bin:$PATH"
pip install requests
python -m venv .venv && .venv/bin/pip install requests
source .venv/bin/activate && pip install -r requirements.txt
pip install --target ./vendor requests
uv pip install requests
pip list
pip show requests
pip download requests -d ./wheels
pip freeze > requirements.txt
python -m pip --version
npm install
npm install --save-dev jest
npm uninstall lodash
npx create-react-app my-app
yarn add react
brew install jq
apt-cache search ffmpeg
apt list --installed
cargo build --release
go test ./...
./gradlew build
mvn -q package
make && ./app
echo $HOME
printenv PATH
env
cat .env
tar czf backup.tgz src/
cp config.example.json config.json
mv old.txt new.txt
mkdir -p out && cp -r src/* out/
ln -s ../shared/config.json config.json
tee output.txt < input.txt
sed -i 's/foo/bar/g' config.ini
truncate -s 0 app.log
> app.log
history | tail -5
crontab -l
systemctl status nginx
docker ps
docker rm -f web
docker run --rm -v "$PWD":/app python:3.12 python /app/main.py
python3 -c "print('hello')"
python script.py --input data.csv
bash -c 'echo hi && ls'
cat /etc/os-release
cat /etc/hosts
head -n 20 /var/log/syslog
ls /etc | grep ssh
echo $((1+2))
for f in *.txt; do echo "$f"; done
while read -r line; do echo "$line"; done < input.txt
diff -u a.txt b.txt
sort data.txt | uniq -c | sort -rn | head
nohup python server.py > server.log 2>&1 &
timeout 10 python slow.py
shellcheck script.sh
tree -L 2
type rm
cd src && ls -la && cd ..
rm -rf ./node_modules ./dist ./.cache
rm -rf .venv
rm -rf .pytest_cache .mypy_cache
rm -f ./*.tmp
rm -rf src/__pycache__
rm -rf "build"
rm -rf 'dist/'
rm -rf target/ && mvn package
BUILD_DIR=out; mkdir -p "$BUILD_DIR" && rm -rf "$BUILD_DIR"/*
cd tmpdir && rm -rf *
find . -name '*.log' -mtime +7 -delete
find ./build -delete
find . -name node_modules -type d -prune -exec rm -rf '{}' +
git push -u origin main
git push origin HEAD
git fetch --all --prune
git reset --mixed HEAD~1
