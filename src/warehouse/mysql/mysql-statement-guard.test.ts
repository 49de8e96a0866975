import { describe, expect, it } from 'vitest';
import { rightsOfGrant } from './mysql-role.js';
import { mysqlStatementRefusal } from './mysql-statement-guard.js';

describe('mysqlStatementRefusal', () => {
  it.each([
    'SELECT 1',
    "SELECT 'load_file' AS word",
    'WITH t AS (SELECT 1) SELECT * FROM t',
    'SHOW TABLES',
    'DESCRIBE items',
    '# comment\nSELECT 1',
  ])('lets %j through to the server', (sql) => {
    expect(mysqlStatementRefusal(sql)).toBeUndefined();
  });

  it.each<[string, RegExp]>([
    ["SET GLOBAL general_log_file = '/tmp/x'", /starts with SET/],
    ['set global general_log = 1', /starts with SET/],
    ["SET SESSION sql_mode = ''", /starts with SET/],
    ["LOAD DATA INFILE '/etc/hostname' INTO TABLE items", /starts with LOAD/],
    ["SELECT 1 INTO OUTFILE '/tmp/x'", /INTO/],
    ["SELECT 1 INTO DUMPFILE '/tmp/x'", /INTO/],
    ["SELECT LOAD_FILE('/etc/passwd')", /load_file/],
    ["SELECT `load_file`('/etc/passwd')", /load_file/],
    ["SELECT load_file /* x */ ('/etc/passwd')", /load_file/],
    ['SELECT user, password FROM mysql.user', /mysql/],
    ['SELECT * FROM `mysql`.`global_priv`', /mysql/],
    ["SELECT sys_exec('touch /tmp/x')", /sys_exec/],
    ['SELECT /*! 1 INTO OUTFILE "/tmp/x" */', /executable comment/],
    ['CALL dropper()', /starts with CALL/],
    ['DO 1', /starts with DO/],
    ["SHOW GRANTS FOR 'root'@'localhost'", /SHOW GRANTS/],
    ['show   create user root', /SHOW CREATE USER/],
    ['SHOW FULL PROCESSLIST', /SHOW FULL PROCESSLIST/],
  ])('refuses %j', (sql, reason) => {
    expect(mysqlStatementRefusal(sql)).toMatch(reason);
  });
});

describe('rightsOfGrant', () => {
  it.each<[string, string[]]>([
    [
      'GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION',
      ['GRANT OPTION', 'ALL PRIVILEGES'],
    ],
    ["GRANT PROXY ON ''@'%' TO 'root'@'localhost' WITH GRANT OPTION", ['GRANT OPTION', 'PROXY']],
    ["GRANT FILE ON *.* TO 'a'@'%'", ['FILE']],
    ["GRANT SELECT, SUPER ON *.* TO 'a'@'%'", ['SUPER']],
    ["GRANT SELECT, INSERT ON *.* TO 'a'@'%'", ['INSERT']],
    ["GRANT USAGE ON *.* TO 'a'@'%' IDENTIFIED BY PASSWORD '*ABC'", []],
    ["GRANT SELECT, SHOW VIEW ON `shop`.* TO 'a'@'%'", []],
    ["GRANT ALL PRIVILEGES ON `shop`.* TO 'a'@'%'", []],
  ])('%s gives %j beyond reading', (line, expected) => {
    const rights = new Set<string>();
    rightsOfGrant(line, rights);
    expect([...rights]).toEqual(expected);
  });
});
